"""livetb: live chess standings with exact FIDE tie-breaks."""

__version__ = "0.1.0"
