import reference as R
from reference import *
from reference import _Search, _roles
from collections import Counter

class Debt(_Search):
    def __init__(self, table, rules):
        super().__init__(table, rules)
        self.jokerish = [table.is_joker(Card(i)) for i in range(52)]
        self.jidx = [i for i in range(52) if self.jokerish[i]]
    def supply(self, nat):
        return sum(nat[i] for i in self.jidx)
    def least_loose(self, naturals, stand_ins, pure_missing):
        key = (naturals, stand_ins, pure_missing)
        if key in self._least:
            return self._least[key]
        supply = self.supply(naturals)
        if stand_ins + supply < 0:
            best = INF
        else:
          low = next((i for i, n in enumerate(naturals) if n), None)
          if low is None:
            best = 0 if pure_missing == 0 else INF
          else:
            rest = self._without(naturals, low, [])
            if self.jokerish[low]:
                best = self.least_loose(rest, stand_ins + 1, pure_missing)
            else:
                best = self.points[low] + self.least_loose(rest, stand_ins, pure_missing)
            budget = stand_ins + supply - self.jokerish[low]
            for others, used, pure in self.groups_with(naturals, low, budget):
                if best == 0:
                    break
                best = min(best, self.least_loose(self._without(naturals, low, others),
                                                  stand_ins - used,
                                                  max(0, pure_missing - pure)))
        self._least[key] = best
        return best
    def can_cover(self, naturals, stand_ins, pure_missing):
        key = (naturals, stand_ins, pure_missing)
        if key in self._cover:
            return self._cover[key]
        supply = self.supply(naturals)
        if stand_ins + supply < 0:
            ok = False
        else:
          low = next((i for i, n in enumerate(naturals) if n), None)
          if low is None:
            ok = pure_missing == 0 and (
                stand_ins == 0 or (self.rules.joker_groups and stand_ins >= 3))
          else:
            ok = self.jokerish[low] and self.can_cover(self._without(naturals, low, []), stand_ins + 1, pure_missing)
            budget = stand_ins + supply - self.jokerish[low]
            ok = ok or any(self.can_cover(self._without(naturals, low, others), stand_ins - used,
                                    max(0, pure_missing - pure))
                     for others, used, pure in self.groups_with(naturals, low, budget))
        self._cover[key] = ok
        return ok

def analyse2(hand, cut, rules):
    table = Cut(cut); held = Counter(hand); s = Debt(table, rules)
    nat = [0]*52
    for c, n in held.items():
        if c != PRINTED_JOKER: nat[c.index] = n
    nat = tuple(nat); pr = held[PRINTED_JOKER]
    a = False; ps = INF
    for t in range(pr//3+1):
        m = max(0, rules.pure_groups_needed - t)
        a = a or s.can_cover(nat, pr-3*t, m)
        ps = min(ps, s.least_loose(nat, pr-3*t, m))
    return a, ps
