"""What the status page and the lost-link form tell a seller, written once here (the photo
picker's messages are app/photos/messages.py)."""

LINK_SENT = (
    "If we have an enquiry in progress for that address, we have e-mailed it a new link. It "
    "should arrive within a few minutes; check your spam folder too."
)
NOT_AN_EMAIL = "Please enter the e-mail address you used on the sell form."
TOO_MANY = "Too many requests from your connection. Please wait a while, or call us on {phone}."

# What the page's "What happens now" box says the seller's next step is, at each state.
NEXT_STEPS = {
    "new": "A specialist is reviewing your details and photos. We reply within 24 hours of "
    "your submission, by e-mail or phone.",
    "contacted": "We are looking at your watch and may call or e-mail you with a question.",
    "quoted": "Accept the preliminary quote below to book your authentication, or decline it. "
    "Questions first? Ask us below or call us before the quote expires.",
    "accepted": "Thank you for accepting. We will contact you to book your authentication "
    "appointment.",
    "appointment": "Your authentication appointment is booked. Add it to your calendar below; "
    "to change it, reply to our e-mail or call us.",
    "offered": "To accept the final offer or talk it over, reply to our e-mail or call us.",
    "bought": "We have paid for your watch. Thank you for selling with us.",
    "closed": "This enquiry is closed. If you change your mind, call us and we will pick it up "
    "again.",
}

UNKNOWN_LINK = "This link does not open an enquiry."
OUT_OF_DATE = "Nothing was changed: this page was out of date. Please try again."

QUESTION_SENT = (
    "Thank you: your question is with our team, and we will answer by e-mail or phone within "
    "24 hours."
)

EXPIRED_QUOTE = (
    "This preliminary quote has expired, so it can no longer be accepted here. Please call us "
    "and we will look at your watch again."
)
NOT_NOW = "Your sale has moved on since this page was opened. Here is where it stands now."
