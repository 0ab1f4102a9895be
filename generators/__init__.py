"""Dossier: turns structured data about a board game into what its players print and use."""

__version__ = "0.1.0"
