"""Sheet: an in-memory spreadsheet with the original tool's operations, graded by cell match."""
