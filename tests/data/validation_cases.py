"""SPEC §5 cases, shared by the server tests and the browser tests (client and server agree)."""

from datetime import date

NEXT_YEAR = str(date.today().year + 1)
THIS_YEAR = str(date.today().year)

# (field, value, expected message or None for valid)
CASES = [
    ("fullName", "", "Name must be at least 2 characters"),
    ("fullName", " J ", "Name must be at least 2 characters"),
    ("fullName", "J" * 101, "Name must be less than 100 characters"),
    ("fullName", "J" * 100, None),
    ("fullName", "R2-D2", "Name can only contain letters, spaces, hyphens, and apostrophes"),
    ("fullName", "Jane <b>", "Name can only contain letters, spaces, hyphens, and apostrophes"),
    ("fullName", "Jane_Doe", "Name can only contain letters, spaces, hyphens, and apostrophes"),
    ("fullName", "José Ñúñez", None),
    ("fullName", "Jose\u0301 Zoe\u0308", None),  # combining marks, NFC-normalised
    ("fullName", "Zoë O'Brien", None),
    ("fullName", "Seán O’Brien", None),
    ("fullName", "Anne-Marie Dupont", None),
    ("fullName", "李小龍", None),
    ("fullName", "देवनागरी नाम", None),
    ("fullName", "Ahmed ١٢", "Name can only contain letters, spaces, hyphens, and apostrophes"),
    ("email", "", "Please enter a valid email address"),
    ("email", "jane@", "Please enter a valid email address"),
    ("email", "jane@example", "Please enter a valid email address"),
    ("email", "jane doe@example.com", "Please enter a valid email address"),
    ("email", "  jane.doe+watch@example.co.uk  ", None),
    ("email", "j" * 250 + "@ex.com", "Email must be less than 255 characters"),
    ("phone", "", "Phone number must be at least 8 digits"),
    ("phone", "555-014", "Phone number must be at least 8 digits"),
    ("phone", "+1 (212) 555-0147 000", "Phone number must be less than 20 characters"),
    ("phone", "212.555.0147", "Please enter a valid phone number"),
    ("phone", "1-800-WATCHES", "Please enter a valid phone number"),
    ("phone", "+1 (212) 555-0147", None),
    ("phone", "２１２５５５０１４７", "Please enter a valid phone number"),
    ("watchBrand", "", "Please select a watch brand"),
    ("watchBrand", "Swatch", "Please select a watch brand"),
    ("watchBrand", "F.P. Journe", None),
    ("watchModel", "", None),
    ("watchModel", "M" * 101, "Model must be less than 100 characters"),
    ("watchModel", "Submariner 126610LN", None),
    ("watchYear", "", None),
    ("watchYear", "1899", "Please enter a valid year"),
    ("watchYear", NEXT_YEAR, "Please enter a valid year"),
    ("watchYear", "２０１９", "Please enter a valid year"),
    ("watchYear", "2_019", "Please enter a valid year"),
    ("watchYear", "19.5", "Please enter a valid year"),
    ("watchYear", "1900", None),
    ("watchYear", THIS_YEAR, None),
    ("watchCondition", "", "Please select watch condition"),
    ("watchCondition", "Mint", "Please select watch condition"),
    ("watchCondition", "Needs Service/Repair", None),
    ("additionalDetails", "", None),
    ("additionalDetails", "x" * 2001, "Additional details must be less than 2000 characters"),
    ("additionalDetails", "x" * 2000, None),
]

VALID = {
    "fullName": "Jane Doe",
    "email": "jane@example.com",
    "phone": "+1 (212) 555-0147",
    "watchBrand": "Rolex",
    "watchModel": "Submariner",
    "watchYear": "2019",
    "watchCondition": "Very Good - Minor wear",
    "additionalDetails": "Serviced in 2023.",
}
