import sys

from estimator_compat.cli import main

sys.exit(main())
