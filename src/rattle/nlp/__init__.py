"""Language resources loaded lazily from installable packages (WordNet, spaCy)."""
