"""Exports for online play and print on demand: Tabletop Simulator, VASSAL and per-side images,
drawn by the printing code from the same data and layouts as the PDFs (see exports.py)."""
