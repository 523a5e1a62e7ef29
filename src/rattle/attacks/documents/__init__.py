"""Document attacks for retrieval-augmented QA (imperfect-retrieval-ralm.txt §5.3–5.4)."""
