"""The arena: matches and tournaments between agents and outside engines, their records, ratings
and SPRT."""
