from ramparts._ramparts import *  # noqa
