"""Writes a tiny DBpedia-format dataset: `<dir>/dbpedia_data/dbpedia_csv/{train,test}.csv`,
rows `class,title,abstract` (classes 1-4), each class's abstracts drawn from its own words
with a few shared ones, so a character CNN separates them in a few hundred steps.
Python 3.7-compatible: the TF 1.15 side venv runs it too.

    python make_dbpedia_csv.py DIR
"""
import csv
import os
import random
import sys

WORDS = {
    1: ["company", "founded", "headquarters", "products", "revenue", "industry"],
    2: ["born", "player", "footballer", "career", "played", "team"],
    3: ["river", "mountain", "village", "located", "district", "lake"],
    4: ["album", "released", "band", "songs", "record", "single"],
}
SHARED = ["the", "is", "a", "of", "in", "and", "was"]


def rows(n, rng):
    out = []
    for i in range(n):
        label = 1 + i % len(WORDS)
        words = [rng.choice(WORDS[label] if rng.random() < 0.2 else SHARED)
                 for _ in range(rng.randint(6, 12))]
        out.append([str(label), "Title %d" % i, " ".join(words).capitalize() + "."])
    rng.shuffle(out)
    return out


def main(directory):
    rng = random.Random(7)
    csv_dir = os.path.join(directory, "dbpedia_data", "dbpedia_csv")
    if not os.path.isdir(csv_dir):
        os.makedirs(csv_dir)
    for name, n in (("train", 400), ("test", 200)):
        with open(os.path.join(csv_dir, name + ".csv"), "w") as f:
            csv.writer(f).writerows(rows(n, rng))


if __name__ == "__main__":
    main(sys.argv[1])
