"""Photo intake, shared by the sell form and the seller's status page: the upload checks, the
photo field's limits, the add-photos form, the messages about photos, and keeping uploads
(files first, then their rows, all or none)."""
