"""The seller's privacy choice: whether what they do here is shared with advertising platforms."""
