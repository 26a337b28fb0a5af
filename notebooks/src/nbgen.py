"""Build a .ipynb for the gophernotes kernel from a list of (kind, source) cells.

Usage from a notebook's generator: nbgen.write(path, cells). Every cell gets a
stable id derived from its position and kind (nbformat 4.5 requires ids).
"""
import json


def write(path, cells):
    out = []
    for k, (kind, src) in enumerate(cells):
        src = src.strip("\n")
        cell = {"cell_type": kind, "id": f"c{k:02d}-{kind}", "metadata": {},
                "source": src.splitlines(keepends=True)}
        if kind == "code":
            cell["execution_count"] = None
            cell["outputs"] = []
        out.append(cell)
    nb = {"cells": out,
          "metadata": {"kernelspec": {"display_name": "Go (hetgain)", "language": "go", "name": "gophernotes"},
                       "language_info": {"file_extension": ".go", "mimetype": "text/x-go", "name": "go"}},
          "nbformat": 4, "nbformat_minor": 5}
    with open(path, "w") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")
