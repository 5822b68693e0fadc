"""Writes train.csv (627 rows) and eval.csv (264 rows) with the columns of the Titanic data
the tensorflow.org boosted trees tutorials read, from a made-up survival rule."""
import os
import sys

import numpy as np
import pandas as pd


def make(path, seed=0):
    rng = np.random.RandomState(seed)
    n = 627 + 264
    sex = rng.choice(["male", "female"], n, p=[0.65, 0.35])
    klass = rng.choice(["First", "Second", "Third"], n, p=[0.25, 0.2, 0.55])
    age = np.clip(rng.normal(29, 13, n), 0.75, 80).round(1)
    siblings = rng.choice([0, 1, 2, 3, 4], n, p=[0.68, 0.23, 0.04, 0.03, 0.02])
    parch = rng.choice([0, 1, 2, 3], n, p=[0.76, 0.13, 0.09, 0.02])
    fare = np.round(np.exp(rng.normal(np.where(klass == "First", 4.2, np.where(
        klass == "Second", 3.0, 2.3)), 0.5)), 4)
    deck = np.where(klass == "First", rng.choice(["A", "B", "C", "D", "E"], n),
                    rng.choice(["unknown", "unknown", "unknown", "F", "G"], n))
    town = rng.choice(["Southampton", "Cherbourg", "Queenstown", "unknown"], n,
                      p=[0.72, 0.19, 0.085, 0.005])
    alone = np.where(siblings + parch == 0, "y", "n")
    score = (2.2 * (sex == "female") - 1.1 * (klass == "Third") + 0.6 * (klass == "First")
             - 0.025 * (age - 30) + 0.8 * (age < 10) + 0.15 * np.log(fare)
             - 0.4 * (siblings > 2) + rng.logistic(0, 0.8, n) - 0.9)
    frame = pd.DataFrame({"survived": (score > 0).astype(int), "sex": sex, "age": age,
                          "n_siblings_spouses": siblings, "parch": parch, "fare": fare,
                          "class": klass, "deck": deck, "embark_town": town, "alone": alone})
    os.makedirs(path, exist_ok=True)
    frame[:627].to_csv(os.path.join(path, "train.csv"), index=False)
    frame[627:].to_csv(os.path.join(path, "eval.csv"), index=False)


if __name__ == "__main__":
    make(sys.argv[1])
