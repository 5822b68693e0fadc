"""WordPiece tokenization with BERT's vocab.txt, by the maintained `tokenizers` library."""
import collections


def load_vocab(vocab_file):
    with open(vocab_file, encoding="utf-8") as f:
        return collections.OrderedDict((line.rstrip("\n"), i) for i, line in enumerate(f))


class FullTokenizer:
    """BERT's tokenizer interface (`tokenize`, `convert_tokens_to_ids`) over tokenizers'
    BertWordPieceTokenizer (lower-casing, punctuation splitting, WordPiece)."""

    def __init__(self, vocab_file, do_lower_case=True):
        from tokenizers import BertWordPieceTokenizer
        self._tokenizer = BertWordPieceTokenizer(vocab_file, lowercase=do_lower_case)
        self.vocab = load_vocab(vocab_file)

    def tokenize(self, text):
        return self._tokenizer.encode(text, add_special_tokens=False).tokens

    def convert_tokens_to_ids(self, tokens):
        unk = self.vocab.get("[UNK]")
        return [self.vocab.get(t, unk) for t in tokens]


def write_vocab_for(texts, vocab_file):
    """A whole-word vocab of `texts` (for the tiny, randomly initialised CI configuration)."""
    from tokenizers.pre_tokenizers import BertPreTokenizer
    pre = BertPreTokenizer()
    words = sorted({w.lower() for t in texts for w, _ in pre.pre_tokenize_str(t)})
    with open(vocab_file, "w", encoding="utf-8") as f:
        f.write("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + words) + "\n")
    return vocab_file
