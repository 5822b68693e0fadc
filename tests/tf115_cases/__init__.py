"""TF 1.x cases per served module, run both in TensorFlow 1.15 (to record) and here (to compare).

Each `tests/tf115_cases/<module>.py` defines `case_<name>(tf)` functions written as a TF 1.15
program would be (Python 3.7 syntax: they also run in the side venv). See `harness.py`.
"""
