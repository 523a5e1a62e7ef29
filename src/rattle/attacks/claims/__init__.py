"""Adversarial factual claims: the seven attacks of the factoid paper, question form, cloze."""
