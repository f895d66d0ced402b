"""Report sections, one module each. A section is a function ``build(ctx) -> Section``."""
