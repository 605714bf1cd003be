"""Helpers the tests share: data files written in the originals' formats, reference readers, policies, checkers."""
