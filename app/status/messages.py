"""What the status page and the lost-link form tell a seller, written once here (the photo
picker's messages are app/photos/messages.py)."""

from app.leads.state import State
from app.sale.erasure import CONFIRM_WITHIN_WORDS
from app.sale.purchase.payout import CONFIRM_WITHIN_WORDS as PAYOUT_CONFIRM_WITHIN_WORDS

LINK_SENT = (
    "If we have an enquiry in progress for that address, we have e-mailed it a new link. It "
    "should arrive within a few minutes; check your spam folder too."
)
NOT_AN_EMAIL = "Please enter the e-mail address you used on the sell form."
TOO_MANY = "Too many requests from your connection. Please wait a while, or call us on {phone}."
LEAD_TOO_MANY = (
    "We have had a lot of questions and photos about this enquiry in a short time. Please wait "
    "a while before sending more, or call us on {phone}."
)

# What the page's "What happens now" box says the seller's next step is, at each state.
NEXT_STEPS = {
    State.NEW: "A specialist is reviewing your details and photos. We reply within 24 hours of "
    "your submission, by e-mail or phone.",
    State.CONTACTED: "We are looking at your watch and may call or e-mail you with a question.",
    State.QUOTED: "Accept the preliminary quote below to book your authentication, or decline it. "
    "Questions first? Ask us below or call us before the quote expires.",
    State.ACCEPTED: "Thank you for accepting. We will contact you to book your authentication "
    "appointment.",
    State.APPOINTMENT: "Your authentication appointment is booked. Add it to your calendar below; "
    "to change it, reply to our e-mail or call us.",
    State.OFFERED: "Our final offer is below, with what it rests on. Accept it to complete the "
    "sale paperwork here, or decline it and we return your watch to you at our expense. "
    "Questions first? Ask us below or call us.",
    State.AGREED: "Thank you for accepting our final offer. Complete the sale paperwork below: "
    "once it is signed and we have checked it, we pay you by bank transfer.",
    State.BOUGHT: "We have paid for your watch. Thank you for selling with us.",
    State.CLOSED: "This enquiry is closed. If you change your mind, call us and we will pick it up "
    "again.",
}

# The same box for a sale by mail (within the policy's per-parcel limit) before its label: no
# appointment, no in-person authentication (from the acceptance on, app/status/mail_page.py).
MAIL_NEXT_STEPS = NEXT_STEPS | {
    State.QUOTED: "Accept the preliminary quote below to go on to your prepaid, insured label, "
    "or decline it. Questions first? Ask us below or call us before the quote expires.",
}

UNKNOWN_LINK = "This link does not open an enquiry."
OUT_OF_DATE = "Nothing was changed: this page was out of date. Please try again."

NO_QUESTION = "Please write your question."
QUESTION_TOO_LONG = "Please keep your question under 2,000 characters, or call us."
QUESTION_SENT = (
    "Thank you: your question is with our team, and we will answer by e-mail or phone within "
    "24 hours."
)

QUOTE_ACCEPTED = (
    "Thank you: you have accepted our preliminary quote. We will contact you to book your "
    "appointment."
)
QUOTE_ACCEPTED_BY_MAIL = (
    "Thank you: you have accepted our preliminary quote. Three short steps below, and then we "
    "send you your prepaid, insured label."
)
QUOTE_DECLINED = "You have declined our preliminary quote, and we have closed your enquiry."
EXPIRED_QUOTE = (
    "This preliminary quote has expired, so it can no longer be accepted here. Please call us "
    "and we will look at your watch again."
)
# Why the seller cannot have their details deleted now: one sentence whatever the reason (the
# watch on its way, with us or held, its serial given, a check open or flagged), so a refusal
# never tells a thief more than an honest seller reads (app/sale/keeping.py).
KEPT_WHILE = (
    "we keep your sale's details while your watch is with us or on its way, and while our "
    "checks of the sale are open, as the law requires, and delete them once it is back with "
    "you and the checks are done"
)
DETAILS_KEPT = (
    f"We cannot delete your details as you withdraw: {KEPT_WHILE}. Withdraw now, and then "
    "reply to any of our e-mails to ask us to delete them."
)
ERASE_NOT_NOW = (
    f"Nothing was changed: {KEPT_WHILE}. Withdraw without deleting, and then reply to any of "
    "our e-mails to ask us to delete them."
)
NOT_NOW = "Your sale has moved on since this page was opened. Here is where it stands now."

TICK_TO_WITHDRAW = "Tick the box to withdraw."
WITHDRAWN = "You have withdrawn your watch, and we have closed your enquiry."
ERASURE_LINK_SENT = (
    f"{WITHDRAWN} We have e-mailed you a link to confirm that we should delete your details and "
    f"photos: it works once, for {CONFIRM_WITHIN_WORDS}. Nothing is deleted until you follow it."
)
# The e-mailed link's pages: the same refusal whatever is wrong with it.
ERASURE_LINK_REFUSED = (
    "A link to confirm a deletion works once, for "
    f"{CONFIRM_WITHIN_WORDS}, and only while the enquiry stays closed. To have your details "
    "deleted, reply to any of our e-mails or call us on {phone}."
)
# After a sale (bought): the status page's request to delete what the law lets go.
TICK_TO_DELETE = "Tick the box to ask us to delete your details."
SALE_ERASURE_LINK_SENT = (
    "We have e-mailed you a link to confirm that we should delete your details: it works once, "
    f"for {CONFIRM_WITHIN_WORDS}. Nothing is deleted until you follow it."
)
ERASURE_UNDER_WAY = (
    "You have confirmed the deletion of your details: it is under way. We send you one last "
    "e-mail, then delete them; there is nothing more for you to do."
)
ERASURE_CONFIRMED = (
    "Thank you. We are deleting your details and photos now, and sending you one last e-mail "
    "to confirm it. After that, the links in our e-mails stop working."
)

# The purchase on record: the final offer, the paperwork, the documents.
OFFER_ACCEPTED = (
    "Thank you: you have accepted our final offer. Complete the sale paperwork now: once it is "
    "signed and we have checked it, we pay you by bank transfer."
)
OFFER_DECLINED = (
    "You have declined our final offer, and we have closed your enquiry. As our terms say, we "
    "return your watch to you at our expense, and it stays covered by our insurance while it "
    "is in our custody. We will contact you to arrange its return."
)
EXPIRED_OFFER = (
    "This final offer has expired, so it can no longer be accepted here. Please call us and we "
    "will go through it with you again."
)
PAPERWORK_SIGNED = (
    "Thank you: your paperwork is signed. We have e-mailed you a link to confirm the account we "
    "pay: we send no money until you do. We also complete our checks of your ID and the "
    "watch, then pay you by bank transfer."
)
# What a seller reads of the checks before payment never names them (the register, a flag): a
# sale held for its checks reads the same until staff tell its seller of the hold, and then
# only this (app/shipping/returns.py on_hold).
PAPERWORK_SIGNED_ON_HOLD = (
    "Thank you: your paperwork is signed. Your sale is on hold pending checks: we will be in touch."
)
PAPERWORK_SIGNED_NEXT = (
    "Your paperwork is signed. Confirm the account we pay with the link we e-mailed you; we also "
    "complete our checks of your ID and the watch, then pay you {by_transfer} and e-mail you "
    "when the payment is sent."
)
# Once bought, under the payment's facts (the site's own words on when a transfer arrives).
PAYMENT_TRACE = (
    "When the transfer shows in your account depends on your bank. If you ask your bank about "
    "it, quote the bank confirmation number."
)
ALREADY_SIGNED = "Your paperwork is already signed, so nothing was changed."
NO_PAPERWORK_NOW = (
    "There is no paperwork to sign for your sale at this point. Here is where it stands now."
)

# The payout link e-mailed when the paperwork is signed (app/sale/purchase/payout.py).
PAYOUT_LINK_REFUSED = (
    "A link to confirm your payout account works once, for "
    f"{PAYOUT_CONFIRM_WITHIN_WORDS}, and only while that paperwork waits for payment. If you "
    "need a hand, reply to any of our e-mails or call us on {phone}."
)
PAYOUT_CONFIRMED = (
    "Thank you: the account is confirmed. Once we have completed our checks of your ID and the "
    "watch, we pay you and e-mail you when the payment is sent."
)
PAYOUT_REFUSED = (
    "We have cancelled that paperwork and switched off every link to your status page: nobody "
    "can be paid with it. We will call you on the number you gave us; to sign again yourself, "
    "ask for a new link to your status page, which we send only to your e-mail address."
)

# An answer to a quote or offer revised after the page was opened: the page shows the new one.
REVISED = {
    State.QUOTED: (
        "We revised our preliminary quote after this page was opened: here is the new one. "
        "Nothing was accepted or declined."
    ),
    State.OFFERED: (
        "We revised our final offer after this page was opened: here is the new one. Nothing "
        "was accepted or declined."
    ),
}

# The link e-mailed to confirm a new return address after the label (app/shipping/address_change.py)
ADDRESS_LINK_REFUSED = (
    "This link cannot be used: it may be mistyped, already used or out of date, or the parcel "
    "is already with the carrier. Nothing was changed. Open your status page to ask again, or "
    "call us on {phone}."
)

# The serial number the seller may give after accepting the quote (app/status/serial_views.py):
# never a word of what it is checked against, so the page reads the same whatever comes of it.
SERIAL_MISSING = "Please type the serial number, or leave it for now: it is optional."
SERIAL_NOT_VALID = (
    "A serial number has 4 to 20 letters and digits; spaces and dashes are fine. Please check "
    "it against the watch or its warranty card."
)
SERIAL_HINT = (
    "It is engraved on the side of the case between the lugs at 6 o'clock, or on the rehaut, "
    "the inner ring around the dial, and printed on the warranty card. Please never open the "
    "watch to look for it."
)
SERIAL_WHY = (
    "Optional. With it we can start our checks on your watch before we see it, so the sale "
    "goes faster."
)
SERIAL_GIVEN = "Thank you: we have your serial number."
SERIAL_NOT_NOW = (
    "We already have your serial number, or your sale has moved on: nothing was changed."
)
