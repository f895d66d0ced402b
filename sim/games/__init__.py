"""Games the toolkit can simulate."""
