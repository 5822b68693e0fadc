"""What a case records of a misuse (Python 3.7 syntax: the TF 1.15 side venv records with it):
the name of the exception a call raises."""


def error_type(call, none="none"):
    """`type(error).__name__` of what `call()` raises; `none` where it returns."""
    try:
        call()
    except Exception as error:  # noqa: BLE001 - the error's type is the record
        return type(error).__name__
    return none
