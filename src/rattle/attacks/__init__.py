"""Edits that need knowledge or a model: documents/ (GenADV, conflict, random, top-k+1)."""
