"""What every posted form is built from: fields and validators shared by the areas' forms."""
