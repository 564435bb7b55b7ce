"""CAP Bench weak-scaling driver (scripts/weak-scaling): sweep, CSV, plots, summary.

Standard library only: it runs with whichever python3 comes first on PATH.
"""
