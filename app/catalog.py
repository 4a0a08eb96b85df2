"""What the site buys: the watch brands the sell form offers and the condition grades it asks
for, one list each, for the sell form (app/sell/), the price guide (app/prices/) and staff."""

from __future__ import annotations

BRANDS = [
    "Rolex",
    "Omega",
    "Patek Philippe",
    "Audemars Piguet",
    "Cartier",
    "Tudor",
    "Breitling",
    "IWC",
    "Panerai",
    "Vacheron Constantin",
    "Jaeger-LeCoultre",
    "Hublot",
    "Richard Mille",
    "F.P. Journe",
    "TAG Heuer",
    "Chopard",
    "Other",
]
CONDITIONS = [
    "Excellent - Like new",
    "Very Good - Minor wear",
    "Good - Moderate wear",
    "Fair - Significant wear",
    "Needs Service/Repair",
]
OTHER_BRAND = "Other"
