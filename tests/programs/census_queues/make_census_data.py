"""Census-like CSV rows (the UCI adult data set's columns, synthetic values) for the census
programs: income_bracket ' >50K' with a probability that grows with age, education, hours and
capital gain, and depends on occupation and marital status. Writes adult.data.csv and
adult.test.csv (no header, as the Cloud ML Engine samples read them).
Usage: python make_census_data.py OUTPUT_DIR"""
import os
import sys

import numpy as np

WORKCLASS = [" Private", " Self-emp-not-inc", " Self-emp-inc", " Federal-gov", " Local-gov",
             " State-gov", " Without-pay", " Never-worked"]
EDUCATION = [" Bachelors", " HS-grad", " 11th", " Masters", " 9th", " Some-college",
             " Assoc-acdm", " Assoc-voc", " 7th-8th", " Doctorate", " Prof-school",
             " 5th-6th", " 10th", " 1st-4th", " Preschool", " 12th"]
EDUCATION_NUM = [13, 9, 7, 14, 5, 10, 12, 11, 4, 16, 15, 3, 6, 2, 1, 8]
MARITAL = [" Married-civ-spouse", " Divorced", " Married-spouse-absent", " Never-married",
           " Separated", " Married-AF-spouse", " Widowed"]
OCCUPATION = [" Tech-support", " Craft-repair", " Other-service", " Sales", " Exec-managerial",
              " Prof-specialty", " Handlers-cleaners", " Machine-op-inspct", " Adm-clerical",
              " Farming-fishing", " Transport-moving", " Priv-house-serv", " Protective-serv",
              " Armed-Forces"]
RELATIONSHIP = [" Wife", " Own-child", " Husband", " Not-in-family", " Other-relative",
                " Unmarried"]
RACE = [" White", " Asian-Pac-Islander", " Amer-Indian-Eskimo", " Other", " Black"]
GENDER = [" Female", " Male"]
COUNTRY = [" United-States", " Mexico", " Philippines", " Germany", " Canada", " India"]
OCCUPATION_EFFECT = {" Exec-managerial": 1.0, " Prof-specialty": 0.9, " Tech-support": 0.4,
                     " Sales": 0.3, " Other-service": -1.0, " Handlers-cleaners": -0.8,
                     " Priv-house-serv": -1.5}


def rows(n, seed):
    rng = np.random.RandomState(seed)
    for _ in range(n):
        age = int(rng.randint(17, 80))
        edu = int(rng.randint(len(EDUCATION)))
        occupation = OCCUPATION[rng.randint(len(OCCUPATION))]
        marital = MARITAL[rng.randint(len(MARITAL))]
        hours = int(np.clip(rng.normal(40, 12), 1, 99))
        gain = int(rng.exponential(3000)) if rng.rand() < 0.1 else 0
        score = (0.04 * (min(age, 60) - 38) + 0.35 * (EDUCATION_NUM[edu] - 10) + 0.04 * (hours - 40)
                 + 0.0003 * gain + OCCUPATION_EFFECT.get(occupation, 0.0)
                 + (1.2 if marital == " Married-civ-spouse" else -0.6) - 1.0)
        label = " >50K" if rng.rand() < 1 / (1 + np.exp(-2 * score)) else " <=50K"
        yield [age, WORKCLASS[rng.randint(len(WORKCLASS))], int(rng.randint(20000, 400000)),
               EDUCATION[edu], EDUCATION_NUM[edu], marital, occupation,
               RELATIONSHIP[rng.randint(len(RELATIONSHIP))], RACE[rng.randint(len(RACE))],
               GENDER[rng.randint(2)], gain, 0, hours, COUNTRY[rng.randint(len(COUNTRY))], label]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, n, seed in (("adult.data.csv", 4000, 1), ("adult.test.csv", 1000, 2)):
        with open(os.path.join(out, name), "w") as f:
            for row in rows(n, seed):
                f.write(",".join(str(v) for v in row) + "\n")
    print("wrote", sorted(os.listdir(out)))


if __name__ == "__main__":
    main()
