"""`tf.contrib.learn.preprocessing.CategoricalVocabulary`: category <-> id, id 0 for unknown.

Ids are given in the order categories are first seen (`get` adds a category while the
vocabulary is not frozen; `add` also counts it). `trim(min_frequency, max_frequency)` keeps
the categories seen more than `min_frequency` times (and fewer than `max_frequency`, when
given) and renumbers them by count, most frequent first, ties by category, as TF 1.15 did.
The attribute names are TF 1.15's, so a vocabulary pickled there unpickles here.
"""
import collections

__all__ = ["CategoricalVocabulary"]


class CategoricalVocabulary:
    """A growing (until `freeze()`) mapping of categories to ids; id 0 is `unknown_token`."""

    def __init__(self, unknown_token="<UNK>", support_reverse=True):
        self._unknown_token = unknown_token
        self._mapping = {unknown_token: 0}
        self._support_reverse = support_reverse
        if support_reverse:
            self._reverse_mapping = [unknown_token]
        self._freq = collections.defaultdict(int)
        self._freeze = False

    def __len__(self):
        return len(self._mapping)

    def freeze(self, freeze=True):
        """Stops (or with False, resumes) adding unseen categories."""
        self._freeze = freeze

    def get(self, category):
        """The id of `category`; an unseen one is added (0 once frozen)."""
        if category not in self._mapping:
            if self._freeze:
                return 0
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
        return self._mapping[category]

    def add(self, category, count=1):
        """Adds `category` (unless frozen) and counts it `count` times."""
        category_id = self.get(category)
        if category_id <= 0:
            return
        self._freq[category] += count

    def trim(self, min_frequency, max_frequency=-1):
        """Keeps categories counted more than `min_frequency` (and less than `max_frequency`
        when that is positive), renumbered most frequent first."""
        ranked = sorted(self._freq.items(), key=lambda item: (-item[1], item[0]))
        self._mapping = {self._unknown_token: 0}
        if self._support_reverse:
            self._reverse_mapping = [self._unknown_token]
        kept = 0
        for category, count in ranked:
            if max_frequency > 0 and count >= max_frequency:
                continue
            if count <= min_frequency:
                break
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
            kept += 1
        # TF 1.15 kept the counts of the first `kept` categories by rank (not of those kept
        # when max_frequency drops some); the same here.
        self._freq = dict(ranked[:kept])

    def reverse(self, class_id):
        """The category of `class_id` (IndexError past the end)."""
        if not self._support_reverse:
            raise ValueError("This vocabulary wasn't initialized with support_reverse to "
                             "support reverse() function.")
        return self._reverse_mapping[class_id]
