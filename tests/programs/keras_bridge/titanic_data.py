"""Writes titanic-like train.csv / eval.csv (the tutorials' columns; synthetic, deterministic).

The tensorflow.org tutorials read the titanic CSVs from storage.googleapis.com; tests have no
network, so this makes files with the same columns and a learnable survival rule.
Usage: python titanic_data.py OUT_DIR
"""
import csv
import os
import sys

import numpy as np

COLUMNS = ["survived", "sex", "age", "n_siblings_spouses", "parch", "fare", "class", "deck",
           "embark_town", "alone"]


def rows(n, rng):
    for _ in range(n):
        sex = rng.choice(["male", "female"], p=[0.65, 0.35])
        cls = rng.choice(["First", "Second", "Third"], p=[0.25, 0.2, 0.55])
        age = float(np.clip(rng.normal(29, 13), 0.75, 80).round(1))
        sib, parch = int(rng.choice([0, 1, 2, 3], p=[.68, .23, .05, .04])), \
            int(rng.choice([0, 1, 2], p=[.76, .14, .1]))
        fare = float({"First": 84, "Second": 21, "Third": 13}[cls] * rng.uniform(0.5, 1.5))
        deck = rng.choice(["A", "B", "C", "D", "E"]) if cls == "First" and rng.rand() < .8 \
            else "unknown"
        town = rng.choice(["Southampton", "Cherbourg", "Queenstown", "unknown"],
                          p=[.72, .19, .08, .01])
        alone = "y" if sib + parch == 0 else "n"
        score = (2.4 * (sex == "female") + {"First": 1.0, "Second": .3, "Third": -.8}[cls]
                 - 0.02 * (age - 30) - 1.3 + rng.normal(0, .6))
        yield [int(score > 0), sex, age, sib, parch, round(fare, 4), cls, deck, town, alone]


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.RandomState(1912)
    for name, n in (("train.csv", 627), ("eval.csv", 264)):
        with open(os.path.join(out_dir, name), "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(COLUMNS)
            writer.writerows(rows(n, rng))


if __name__ == "__main__":
    main(sys.argv[1])
