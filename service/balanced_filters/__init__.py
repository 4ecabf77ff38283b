"""Balanced filters: accept candidates whose group is unknown, through a non-disclosive proxy (SPEC §4.5).

Choices where SPEC is silent:

* a candidate id is decided once: table ``filter_candidates`` keeps each id's
  first decision, so a repeated id (in any call, with any features) gets that
  answer back and counts once; outcomes are stored on the same row and count
  once. The table has no foreign key to ``sessions`` (see ``models.py``): a
  filter's DELETE deletes its rows;
* outcomes are accepted only for ids this filter accepted; an unknown id, a
  rejected one, an unknown group or a second, different group for an id is a
  422 for the whole call (nothing is counted);
* the target defaults to uniform within each group class; ``alpha`` and
  ``epsilon`` are required for the (α, β) trees and ignored by the others;
* ``/v1/sampling-probabilities`` requires leaf rates, target and every
  non-empty leaf's row to sum to 1 (within 1e-6) -- rows of leaves with rate 0
  may be all zeros.
"""
