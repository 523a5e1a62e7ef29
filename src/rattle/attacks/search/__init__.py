"""Goal-directed search attacks: find the smallest edit that changes an answer.

An attack is four registered, typed parts (TextAttack's decomposition, Morris et al. 2020,
arXiv:2005.05909): *transformations* propose edits of one word (``transformations``),
*constraints* say which words and texts are allowed (``constraints``), a *goal* says when an
answer counts as changed and scores how close a candidate comes (``goals``), and a *search
method* decides what to ask next under a query budget (``methods``). ``engine`` runs one search
as a sans-I/O flow; every query goes through the run's executor and store.
"""
