"""Academia: a generated citation network (papers, authors, venues, years, citations, co-authorship)."""
