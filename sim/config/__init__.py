"""Reading and checking configuration, for rulesets, experiment files, data files and
strategy parameters, every error naming its source, the key and what was expected:

- files.py: YAML files (and command-line values) read within bounds, the line of each key, a
  data file checked against schemas;
- keys.py: dotted keys, and the command line's `key=value` overrides;
- fields.py: a key's kind and limits (`Field`, `Schema`), a value checked and converted;
- words.py: a value shown as the user wrote it, and the nearest known word suggested.
"""
