/* The quick first pass in C: the native twin of rummy21/solver/greedy.py (greedy_arrangement).
 *
 * Included by _native.c (one translation unit: everything here is static). greedy.py is the
 * reference: the same pure groups are chosen (the heaviest per suit, ties to the first found,
 * as its dicts keep them), the same sets, runs and joker groups follow, in the same order and
 * with their cards in the same order. Everything the rules leave to the table comes in as an
 * argument; what the cards are (53 kinds, suit-major, the face points of cards.py) is known.
 *
 * A suit is searched as a "line" of 14 positions (Ace low, 2 .. K, Ace high), packed two bits
 * a position (0..3 copies). The search of one line is memoised per call, in a table whose
 * slots are found through an index (slot number + 1, 0 where empty): the index alone is
 * cleared between suits, and slots are referred to by number, so the table may grow while
 * the recursion runs. The recursion takes at least one card off the line each level: it is
 * never deeper than the line has cards (42).
 */

#define Q_KINDS CARD_KINDS
#define Q_JOKER JOKER_KIND
#define Q_SUITS SUITS
#define Q_RANKS RANKS
#define Q_LINE (RANKS + 1)            /* positions of a suit's line: Ace low, 2 .. K, Ace high */
#define Q_COPIES DECKS                /* the most copies of a suited card */
#define Q_PRINTED_MOST 255            /* the most printed jokers taken */
#define Q_SUITED_MOST (Q_SUITS * Q_RANKS * Q_COPIES)
#define Q_CARDS_MOST (Q_SUITED_MOST + Q_PRINTED_MOST)
#define Q_GROUPS_MOST (Q_CARDS_MOST / 3 + 1)
#define Q_NEED_MOST 15                /* the most pure groups asked for (numbers of groups: 0..15) */
#define Q_KS (Q_NEED_MOST + 1)
#define Q_LOW_BITS 0x05555555u        /* the low bit of each position of a packed line */
#define Q_NO_CORES (-2)               /* a line without any pure group: {0: weight 0} */
#define Q_BIG 1000                    /* bounds of run lengths read from Python */

/* Group kind codes (Q_PURE_SEQUENCE ..) and the weights of pure groups' cards
 * (Q_NATURAL_WEIGHT, Q_JOKER_WEIGHT): greedy.py's, from _native_tables.h. */
/* How a line's lowest card is used: left out, a tunnela, or a run of that many cards (3..). */
enum { Q_MOVE_SKIP = 0, Q_MOVE_TUNNELA = 1 };

/* ------------------------------------------------------------------ a line's heaviest groups */

typedef struct {
    int32_t weight;
    uint8_t move;    /* what the line's lowest card does */
    uint8_t child_k; /* the entry taken from the line left after the move */
} QCore;

/* The heaviest groups for each number of groups (0 .. need; need: at least), in the order
 * the numbers were first reached (greedy.py's dicts). */
typedef struct {
    uint32_t present; /* bit k: an entry for k groups */
    uint8_t n;
    uint8_t order[Q_KS];
    QCore at[Q_KS];
} QCores;

static const QCores Q_NOTHING = {.present = 1, .n = 1, .order = {0}, .at = {{0, Q_MOVE_SKIP, 0}}};

typedef struct {
    uint32_t line;
    QCores cores;
} QSlot;

typedef struct {
    uint32_t *index; /* slot number + 1, 0 where empty */
    uint32_t bits;   /* the index has 1 << bits places, at most half of them used */
    QSlot *slots;
    uint32_t n, cap;
} QMemo;

#define Q_MEMO_BITS 8
#define Q_MEMO_SLOTS 64

static int
qmemo_init(QMemo *memo)
{
    memo->bits = Q_MEMO_BITS;
    memo->n = 0;
    memo->cap = Q_MEMO_SLOTS;
    memo->index = PyMem_Calloc((size_t)1 << Q_MEMO_BITS, sizeof(uint32_t));
    memo->slots = PyMem_Malloc(sizeof(QSlot) * Q_MEMO_SLOTS);
    if (!memo->index || !memo->slots) {
        PyMem_Free(memo->index);
        PyMem_Free(memo->slots);
        memo->index = NULL;
        memo->slots = NULL;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void
qmemo_free(QMemo *memo)
{
    PyMem_Free(memo->index);
    PyMem_Free(memo->slots);
    memo->index = NULL;
    memo->slots = NULL;
}

static void
qmemo_clear(QMemo *memo)
{
    memset(memo->index, 0, sizeof(uint32_t) << memo->bits);
    memo->n = 0;
}

static inline uint32_t
qmemo_place(uint32_t line, uint32_t bits)
{
    return (line * 0x9E3779B1u) >> (32 - bits);
}

/* The slot of ``line``, or -1. */
static int32_t
qmemo_find(const QMemo *memo, uint32_t line)
{
    uint32_t mask = (1u << memo->bits) - 1;
    for (uint32_t at = qmemo_place(line, memo->bits);; at = (at + 1) & mask) {
        uint32_t slot = memo->index[at];
        if (slot == 0)
            return -1;
        if (memo->slots[slot - 1].line == line)
            return (int32_t)(slot - 1);
    }
}

static void
qmemo_index(QMemo *memo, uint32_t slot)
{
    uint32_t mask = (1u << memo->bits) - 1;
    uint32_t at = qmemo_place(memo->slots[slot].line, memo->bits);
    while (memo->index[at])
        at = (at + 1) & mask;
    memo->index[at] = slot + 1;
}

/* Keep ``cores`` as ``line``'s (not kept yet): its slot, or -1 (no memory; exception set). */
static int32_t
qmemo_add(QMemo *memo, uint32_t line, const QCores *cores)
{
    if (memo->n == memo->cap) {
        QSlot *slots = PyMem_Realloc(memo->slots, sizeof(QSlot) * memo->cap * 2);
        if (!slots) {
            PyErr_NoMemory();
            return -1;
        }
        memo->slots = slots;
        memo->cap *= 2;
    }
    if ((memo->n + 1) * 2 > (1u << memo->bits)) {
        uint32_t *index = PyMem_Calloc((size_t)1 << (memo->bits + 1), sizeof(uint32_t));
        if (!index) {
            PyErr_NoMemory();
            return -1;
        }
        PyMem_Free(memo->index);
        memo->index = index;
        memo->bits++;
        for (uint32_t i = 0; i < memo->n; i++)
            qmemo_index(memo, i);
    }
    uint32_t slot = memo->n++;
    memo->slots[slot].line = line;
    memo->slots[slot].cores = *cores;
    qmemo_index(memo, slot);
    return (int32_t)slot;
}

/* The search of one suit's line: greedy.py's _line_cores, with its arguments. */
typedef struct {
    QMemo *memo;
    int weights[Q_LINE];
    int need, longest;
} QLine;

static inline int
q_count(uint32_t line, int at)
{
    return (int)(line >> (2 * at) & 3);
}

static inline uint32_t
q_nonzero(uint32_t line)
{
    return (line | line >> 1) & Q_LOW_BITS;
}

/* bounds.may_group: whether the line holds any pure group (three copies, or a run of three). */
static inline int
q_may_group(uint32_t line)
{
    uint32_t nz = q_nonzero(line);
    return (line & line >> 1 & Q_LOW_BITS) != 0 || (nz & nz >> 2 & nz >> 4) != 0;
}

static inline int
q_lowest(uint32_t line)
{
    return __builtin_ctz(q_nonzero(line)) / 2;
}

/* The line left when ``move`` takes the lowest card ``i`` of ``line``. */
static inline uint32_t
q_after(uint32_t line, int i, int move)
{
    if (move == Q_MOVE_SKIP)
        return line - (1u << (2 * i));
    if (move == Q_MOVE_TUNNELA)
        return line & ~(3u << (2 * i));
    for (int q = i; q < i + move; q++)
        line -= 1u << (2 * q);
    return line;
}

static int32_t line_cores(QLine *search, uint32_t line);

/* greedy.py's _offer: ``out`` keeps, for each number of groups, the heavier of its entry and
 * the entries of the line left after ``move`` with the move's group (of weight ``gain``). */
static int
q_offer(QLine *search, QCores *out, uint32_t rest, int move, int gain)
{
    int32_t slot = line_cores(search, rest);
    if (slot == -1)
        return -1;
    const QCores *found = slot == Q_NO_CORES ? &Q_NOTHING : &search->memo->slots[slot].cores;
    int adds = move != Q_MOVE_SKIP;
    for (int j = 0; j < found->n; j++) {
        int k = found->order[j];
        int k2 = k + adds < search->need ? k + adds : search->need;
        int32_t weight = found->at[k].weight + gain;
        if (!(out->present >> k2 & 1)) {
            out->present |= 1u << k2;
            out->order[out->n++] = (uint8_t)k2;
        }
        else if (weight <= out->at[k2].weight)
            continue;
        out->at[k2] = (QCore){weight, (uint8_t)move, (uint8_t)k};
    }
    return 0;
}

/* greedy.py's _line_cores: the slot of the line's heaviest groups, Q_NO_CORES when it holds
 * none, -1 on an error (exception set). */
static int32_t
line_cores(QLine *search, uint32_t line)
{
    if (!q_may_group(line))
        return Q_NO_CORES;
    int32_t kept = qmemo_find(search->memo, line);
    if (kept >= 0)
        return kept;
    int i = q_lowest(line);
    QCores out = {0};
    if (q_offer(search, &out, q_after(line, i, Q_MOVE_SKIP), Q_MOVE_SKIP, 0) < 0)
        return -1;
    if (q_count(line, i) == 3 &&
        q_offer(search, &out, q_after(line, i, Q_MOVE_TUNNELA), Q_MOVE_TUNNELA, 3 * search->weights[i]) < 0)
        return -1;
    uint32_t rest = line;
    int gain = 0;
    for (int end = i; end < Q_LINE && q_count(line, end) && end - i < search->longest;) {
        rest -= 1u << (2 * end);
        gain += search->weights[end];
        end++;
        if (end - i >= 3 && q_offer(search, &out, rest, end - i, gain) < 0) /* a run i .. end-1 */
            return -1;
    }
    return qmemo_add(search->memo, line, &out);
}

/* A pure group of a suit: a run of ``length`` positions from ``start``, or a tunnela there. */
typedef struct {
    uint8_t start, length, tunnela;
} QRun;

typedef struct {
    int32_t weight;
    uint8_t n;
    QRun runs[Q_LINE]; /* a line of 42 cards holds at most 14 groups */
} QSuitCore;

/* greedy.py's suit_cores: the heaviest groups of a suit for each number of groups. */
typedef struct {
    uint32_t present;
    uint8_t n;
    uint8_t order[Q_KS];
    QSuitCore at[Q_KS];
} QSuitCores;

/* The groups of ``line``'s entry for ``k`` groups, in greedy.py's order (the lowest card's
 * group last): their number, or -1 (exception set) if the memo lost the way. */
static int
line_groups(const QLine *search, uint32_t line, int32_t slot, int k, QRun *runs)
{
    int n = 0;
    while (slot != Q_NO_CORES) {
        QCore core = search->memo->slots[slot].cores.at[k];
        int i = q_lowest(line);
        if (core.move != Q_MOVE_SKIP) {
            if (n == Q_LINE)
                goto lost;
            runs[n++] = core.move == Q_MOVE_TUNNELA ? (QRun){(uint8_t)i, 3, 1} : (QRun){(uint8_t)i, core.move, 0};
        }
        line = q_after(line, i, core.move);
        k = core.child_k;
        slot = q_may_group(line) ? qmemo_find(search->memo, line) : Q_NO_CORES;
        if (slot == -1)
            goto lost;
    }
    for (int a = 0, b = n - 1; a < b; a++, b--) {
        QRun swap = runs[a];
        runs[a] = runs[b];
        runs[b] = swap;
    }
    return n;
lost: /* (never: every line on the way was searched, and 42 cards make at most 14 groups) */
    PyErr_SetString(PyExc_SystemError, "greedy_arrangement: a line's groups were lost");
    return -1;
}

static int
suit_cores(QLine *search, const int *ranks, QSuitCores *best)
{
    uint32_t lines[Q_COPIES + 1];
    int32_t slots[Q_COPIES + 1];
    uint8_t from[Q_KS]; /* which way of placing the Aces each best entry comes from */
    best->present = 0;
    best->n = 0;
    qmemo_clear(search->memo);
    int aces = ranks[0];
    for (int low = 0; low <= aces; low++) {
        uint32_t line = (uint32_t)low | (uint32_t)(aces - low) << (2 * (Q_LINE - 1));
        for (int r = 1; r < Q_RANKS; r++)
            line |= (uint32_t)ranks[r] << (2 * r);
        int32_t slot = line_cores(search, line);
        if (slot == -1)
            return -1;
        lines[low] = line;
        slots[low] = slot;
        const QCores *found = slot == Q_NO_CORES ? &Q_NOTHING : &search->memo->slots[slot].cores;
        for (int j = 0; j < found->n; j++) {
            int k = found->order[j];
            int32_t weight = found->at[k].weight;
            if (!(best->present >> k & 1)) {
                best->present |= 1u << k;
                best->order[best->n++] = (uint8_t)k;
            }
            else if (weight <= best->at[k].weight)
                continue;
            best->at[k].weight = weight;
            from[k] = (uint8_t)low;
        }
    }
    for (int j = 0; j < best->n; j++) {
        int k = best->order[j];
        int n = line_groups(search, lines[from[k]], slots[from[k]], k, best->at[k].runs);
        if (n < 0)
            return -1;
        best->at[k].n = (uint8_t)n;
    }
    return 0;
}

/* ------------------------------------------------------------------ the greedy arrangement */

typedef struct {
    uint8_t kind;
    uint16_t start, length; /* its cards: cards[start .. start + length) */
} QGroup;

typedef struct {
    int16_t cards[Q_CARDS_MOST];
    int ncards;
    QGroup groups[Q_GROUPS_MOST];
    int ngroups;
    int16_t loose[Q_CARDS_MOST];
    int nloose;
    int padded_at; /* the group the spare jokers lengthen, or -1 */
    int16_t spare[Q_CARDS_MOST];
    int nspare;
} QArrangement;

static inline int
q_rank(int kind)
{
    return kind % Q_RANKS + 1;
}

/* cards.py's Card.points (_native_tables.h). */
static inline int
q_points(int kind)
{
    return CARD_POINTS[kind];
}

static void
q_group(QArrangement *out, int kind, const int16_t *cards, int n)
{
    QGroup *group = &out->groups[out->ngroups++];
    group->kind = (uint8_t)kind;
    group->start = (uint16_t)out->ncards;
    group->length = (uint16_t)n;
    memcpy(&out->cards[out->ncards], cards, sizeof(int16_t) * (size_t)n);
    out->ncards += n;
}

/* greedy.py's one_joker_apart. */
static int
q_one_joker_apart(int a, int b)
{
    int rank_a = q_rank(a), rank_b = q_rank(b);
    if (rank_a == rank_b)
        return a / Q_RANKS != b / Q_RANKS;
    if (a / Q_RANKS != b / Q_RANKS)
        return 0;
    int gap = rank_a > rank_b ? rank_a - rank_b : rank_b - rank_a;
    int high = rank_a > rank_b ? rank_a : rank_b;
    return gap <= 2 || ((rank_a == 1 || rank_b == 1) && 14 - high <= 2);
}

/* greedy.py's natural_melds: sets, then runs of three, taken out of ``left`` (the natural
 * cards' counts). */
static void
q_natural_melds(QArrangement *out, int *left, int max_set)
{
    for (int rank = 0; rank < Q_RANKS; rank++) {
        for (;;) {
            int16_t suits[Q_SUITS];
            int n = 0;
            for (int s = 0; s < Q_SUITS; s++)
                if (left[s * Q_RANKS + rank])
                    suits[n++] = (int16_t)(s * Q_RANKS + rank);
            if (n < 3)
                break;
            if (n > max_set)
                n = max_set;
            for (int j = 0; j < n; j++)
                left[suits[j]]--;
            q_group(out, Q_SET, suits, n);
        }
    }
    for (int s = 0; s < Q_SUITS; s++) {
        for (int start = 0; start < Q_RANKS - 1; start++) {
            int16_t run[3];
            for (int j = 0; j < 3; j++)
                run[j] = (int16_t)(s * Q_RANKS + (start + j) % Q_RANKS);
            while (left[run[0]] && left[run[1]] && left[run[2]]) {
                for (int j = 0; j < 3; j++)
                    left[run[j]]--;
                q_group(out, Q_PURE_SEQUENCE, run, 3);
            }
        }
    }
}

typedef struct {
    int key; /* points per joker, doubled */
    int cost;
    int16_t cards[2];
} QWant;

/* The rest of greedy_arrangement, once the pure groups are in ``out``: ``left`` holds the
 * counts of the other cards. */
static void
q_give_jokers(QArrangement *out, int *left, const int *mask, int max_set, int joker_groups, int max_sequence)
{
    out->nspare = 0;
    for (int i = 0; i < Q_KINDS; i++)
        if (mask[i])
            for (int c = 0; c < left[i]; c++)
                out->spare[out->nspare++] = (int16_t)i;
    int naturals[Q_KINDS];
    for (int i = 0; i < Q_KINDS; i++)
        naturals[i] = mask[i] ? 0 : left[i];
    q_natural_melds(out, naturals, max_set);

    /* Pairs a joker completes (the first card left single that goes with each), singles. */
    QWant wants[Q_SUITED_MOST], pairs[Q_SUITED_MOST / 2];
    int16_t single[Q_SUITED_MOST];
    int npairs = 0, nsingle = 0;
    for (int i = 0; i < Q_JOKER; i++) {
        for (int c = 0; c < naturals[i]; c++) {
            int mate = -1;
            for (int j = 0; j < nsingle && mate < 0; j++)
                if (q_one_joker_apart(single[j], i))
                    mate = j;
            if (mate < 0) {
                single[nsingle++] = (int16_t)i;
                continue;
            }
            int16_t first = single[mate];
            memmove(&single[mate], &single[mate + 1], sizeof(int16_t) * (size_t)(nsingle - mate - 1));
            nsingle--;
            pairs[npairs++] = (QWant){2 * (q_points(first) + q_points(i)), 1, {first, (int16_t)i}};
        }
    }
    int nwants = 0;
    for (int j = 0; j < npairs; j++)
        wants[nwants++] = pairs[j];
    for (int j = 0; j < nsingle; j++)
        wants[nwants++] = (QWant){q_points(single[j]), 2, {single[j], -1}};
    /* The most points per joker first; a stable sort (insertion), as sorted() is. */
    for (int j = 1; j < nwants; j++) {
        QWant want = wants[j];
        int at = j;
        while (at > 0 && wants[at - 1].key < want.key) {
            wants[at] = wants[at - 1];
            at--;
        }
        wants[at] = want;
    }

    int padded = 0;
    out->nloose = 0;
    for (int j = 0; j < nwants; j++) {
        QWant *want = &wants[j];
        int n = want->cost == 1 ? 2 : 1;
        if (out->nspare < want->cost) {
            for (int c = 0; c < n; c++)
                out->loose[out->nloose++] = want->cards[c];
            continue;
        }
        int16_t cards[3];
        for (int c = 0; c < n; c++)
            cards[c] = want->cards[c];
        for (int c = 0; c < want->cost; c++)
            cards[n + c] = out->spare[--out->nspare];
        int same_rank = n == 2 && q_rank(cards[0]) == q_rank(cards[1]);
        q_group(out, same_rank ? Q_SET : Q_IMPURE_SEQUENCE, cards, 3);
        padded = padded || want->cost == 2;
    }

    out->padded_at = -1;
    if (out->nspare == 0)
        return;
    if (out->nspare >= 3 && joker_groups) {
        q_group(out, Q_JOKER_GROUP, out->spare, out->nspare);
        out->nspare = 0;
    }
    else if (padded && out->nspare <= max_sequence - 3) {
        /* A run padded around a single card (the last) takes them all. */
        for (int g = 0; g < out->ngroups; g++) {
            QGroup *group = &out->groups[g];
            if (group->kind != Q_IMPURE_SEQUENCE || group->length != 3)
                continue;
            int naturals_in = 0;
            for (int c = 0; c < 3; c++)
                naturals_in += !mask[out->cards[group->start + c]];
            if (naturals_in == 1)
                out->padded_at = g;
        }
    }
    if (out->padded_at < 0) { /* loose (when a padded run was looked for, one was found) */
        for (int c = 0; c < out->nspare; c++)
            out->loose[out->nloose++] = out->spare[c];
        out->nspare = 0;
    }
}

/* ------------------------------------------------------------------ from and to Python */

/* Reads ``obj``, a sequence of 53 ints, each within low .. high (the printed joker's within
 * low .. joker_high). */
static int
q_read_kinds(PyObject *obj, const char *what, long low, long high, long joker_high, int *out)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != Q_KINDS) {
        PyErr_Format(PyExc_ValueError, "%s: %d values expected, not %zd", what, Q_KINDS,
                     PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (int i = 0; i < Q_KINDS; i++) {
        long value;
        if (small_int(PySequence_Fast_GET_ITEM(seq, i), low, i == Q_JOKER ? joker_high : high, what, &value) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)value;
    }
    Py_DECREF(seq);
    return 0;
}

/* A tuple of ``first`` and ``second`` (references stolen, either may be NULL). */
static PyObject *
q_pair(PyObject *first, PyObject *second)
{
    PyObject *pair = first && second ? PyTuple_New(2) : NULL;
    if (!pair) {
        Py_XDECREF(first);
        Py_XDECREF(second);
        return NULL;
    }
    PyTuple_SET_ITEM(pair, 0, first);
    PyTuple_SET_ITEM(pair, 1, second);
    return pair;
}

static PyObject *
q_ints(const int16_t *first, int n, const int16_t *more, int nmore)
{
    PyObject *tuple = PyTuple_New(n + nmore);
    if (!tuple)
        return NULL;
    for (int i = 0; i < n + nmore; i++) {
        PyObject *value = PyLong_FromLong(i < n ? first[i] : more[i - n]);
        if (!value) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, value);
    }
    return tuple;
}

/* (points, groups as (kind, cards), loose cards sorted), as greedy.py returns them. */
static PyObject *
q_result(const QArrangement *out)
{
    PyObject *groups = PyTuple_New(out->ngroups);
    if (!groups)
        return NULL;
    for (int g = 0; g < out->ngroups; g++) {
        const QGroup *group = &out->groups[g];
        int extra = g == out->padded_at ? out->nspare : 0;
        PyObject *cards = q_ints(&out->cards[group->start], group->length, out->spare, extra);
        PyObject *pair = q_pair(PyLong_FromLong(group->kind), cards);
        if (!pair) {
            Py_DECREF(groups);
            return NULL;
        }
        PyTuple_SET_ITEM(groups, g, pair);
    }
    int16_t loose[Q_CARDS_MOST];
    int nloose = 0, points = 0;
    int counts[Q_KINDS] = {0};
    for (int c = 0; c < out->nloose; c++) {
        counts[out->loose[c]]++;
        points += q_points(out->loose[c]);
    }
    for (int i = 0; i < Q_KINDS; i++)
        for (int c = 0; c < counts[i]; c++)
            loose[nloose++] = (int16_t)i;
    PyObject *items[3] = {PyLong_FromLong(points), groups, q_ints(loose, nloose, NULL, 0)};
    PyObject *result = items[0] && items[2] ? PyTuple_New(3) : NULL;
    for (int i = 0; i < 3; i++) {
        if (result)
            PyTuple_SET_ITEM(result, i, items[i]);
        else
            Py_XDECREF(items[i]);
    }
    return result;
}

/* greedy.py's heaviest_pure_groups, into ``out``: 0, 1 when the cards cannot form enough, -1
 * on an error. */
static int
q_pure_groups(QArrangement *out, const int *counts, const int *mask, int need, int longest)
{
    QMemo memo;
    if (qmemo_init(&memo) < 0)
        return -1;
    QSuitCores suits[Q_SUITS];
    /* The table over the suits so far: for each number of groups, the weight and where from. */
    struct {
        uint32_t present;
        uint8_t n;
        uint8_t order[Q_KS];
        int32_t weight[Q_KS];
        uint8_t from_k[Q_KS], suit_k[Q_KS];
    } table[Q_SUITS + 1];
    table[0].present = 1;
    table[0].n = 1;
    table[0].order[0] = 0;
    table[0].weight[0] = 0;
    for (int s = 0; s < Q_SUITS; s++) {
        QLine search = {.memo = &memo, .need = need, .longest = longest};
        for (int r = 0; r < Q_LINE; r++)
            search.weights[r] = mask[s * Q_RANKS + r % Q_RANKS] ? Q_JOKER_WEIGHT : Q_NATURAL_WEIGHT;
        if (suit_cores(&search, &counts[s * Q_RANKS], &suits[s]) < 0) {
            qmemo_free(&memo);
            return -1;
        }
        table[s + 1].present = 0;
        table[s + 1].n = 0;
        for (int a = 0; a < table[s].n; a++) {
            int k1 = table[s].order[a];
            for (int b = 0; b < suits[s].n; b++) {
                int k2 = suits[s].order[b];
                int k = k1 + k2 < need ? k1 + k2 : need;
                int32_t weight = table[s].weight[k1] + suits[s].at[k2].weight;
                if (!(table[s + 1].present >> k & 1)) {
                    table[s + 1].present |= 1u << k;
                    table[s + 1].order[table[s + 1].n++] = (uint8_t)k;
                }
                else if (weight <= table[s + 1].weight[k])
                    continue;
                table[s + 1].weight[k] = weight;
                table[s + 1].from_k[k] = (uint8_t)k1;
                table[s + 1].suit_k[k] = (uint8_t)k2;
            }
        }
    }
    qmemo_free(&memo);

    int found = 0, best_k = 0, best_tunnelas = 0;
    int32_t best = 0;
    const int tunnela = 3 * Q_JOKER_WEIGHT;
    for (int tunnelas = 0; tunnelas <= counts[Q_JOKER] / 3; tunnelas++) {
        for (int a = 0; a < table[Q_SUITS].n; a++) {
            int k = table[Q_SUITS].order[a];
            int32_t weight = table[Q_SUITS].weight[k] + tunnela * tunnelas;
            if ((k + tunnelas < need ? k + tunnelas : need) == need && (!found || weight > best)) {
                found = 1;
                best = weight;
                best_k = k;
                best_tunnelas = tunnelas;
            }
        }
    }
    if (!found)
        return 1;
    int suit_k[Q_SUITS];
    for (int s = Q_SUITS - 1, k = best_k; s >= 0; s--) {
        suit_k[s] = table[s + 1].suit_k[k];
        k = table[s + 1].from_k[k];
    }
    for (int s = 0; s < Q_SUITS; s++) {
        const QSuitCore *core = &suits[s].at[suit_k[s]];
        for (int g = 0; g < core->n; g++) {
            QRun run = core->runs[g];
            int16_t cards[Q_LINE];
            for (int c = 0; c < run.length; c++)
                cards[c] = (int16_t)(s * Q_RANKS + (run.start + (run.tunnela ? 0 : c)) % Q_RANKS);
            q_group(out, run.tunnela ? Q_TUNNELA : Q_PURE_SEQUENCE, cards, run.length);
        }
    }
    for (int t = 0; t < best_tunnelas; t++) {
        const int16_t printed[3] = {Q_JOKER, Q_JOKER, Q_JOKER};
        q_group(out, Q_TUNNELA, printed, 3);
    }
    return 0;
}

/* greedy.greedy_arrangement(counts, mask, need, longest, max_set, joker_groups, max_sequence) */
static PyObject *
greedy_arrangement(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (need_configured() < 0)
        return NULL;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "greedy_arrangement(counts, mask, need, longest, max_set, joker_groups, max_sequence)");
        return NULL;
    }
    int counts[Q_KINDS], mask[Q_KINDS];
    long need, longest, max_set, joker_groups, max_sequence;
    if (q_read_kinds(args[0], "counts", 0, Q_COPIES, Q_PRINTED_MOST, counts) < 0 ||
        q_read_kinds(args[1], "mask", 0, 1, 1, mask) < 0 || small_int(args[2], 0, Q_BIG, "need", &need) < 0 ||
        small_int(args[3], 0, Q_BIG, "longest", &longest) < 0 || small_int(args[4], 3, 4, "max_set", &max_set) < 0 ||
        small_int(args[5], 0, 1, "joker_groups", &joker_groups) < 0 ||
        small_int(args[6], 0, Q_BIG, "max_sequence", &max_sequence) < 0)
        return NULL;
    if (!mask[Q_JOKER] && counts[Q_JOKER]) {
        PyErr_SetString(PyExc_ValueError, "mask: the printed joker is a joker");
        return NULL;
    }
    int cards = 0;
    for (int i = 0; i < Q_KINDS; i++)
        cards += counts[i];
    if (need > Q_NEED_MOST) {
        if (need * 3 > cards)
            Py_RETURN_NONE; /* each group takes three cards or more */
        PyErr_Format(PyExc_ValueError, "need is %ld, outside 0..%d", need, Q_NEED_MOST);
        return NULL;
    }
    QArrangement out;
    out.ncards = 0;
    out.ngroups = 0;
    int left[Q_KINDS];
    memcpy(left, counts, sizeof(left));
    int found = q_pure_groups(&out, counts, mask, (int)need, longest < Q_LINE ? (int)longest : Q_LINE);
    if (found < 0)
        return NULL;
    if (found > 0)
        Py_RETURN_NONE;
    for (int c = 0; c < out.ncards; c++)
        left[out.cards[c]]--;
    q_give_jokers(&out, left, mask, (int)max_set, (int)joker_groups, (int)max_sequence);
    return q_result(&out);
}

/* ------------------------------------------------------------------ the pure-group bound */

/* bounds.max_pure_groups(counts): printed-joker tunnelas, then each suit's most pure groups
 * with its Aces split every way between the low end and the high end of its line. */
static PyObject *
max_pure_groups(PyObject *Py_UNUSED(module), PyObject *counts_obj)
{
    int counts[Q_KINDS];
    if (q_read_kinds(counts_obj, "counts", 0, Q_COPIES, Q_PRINTED_MOST, counts) < 0)
        return NULL;
    long total = counts[Q_JOKER] / 3;
    for (int s = 0; s < Q_SUITS; s++) {
        const int *ranks = counts + s * Q_RANKS;
        int line[Q_LINE], aces = ranks[0], best = 0;
        for (int r = 1; r < Q_RANKS; r++)
            line[r] = ranks[r];
        for (int low = 0; low <= aces; low++) {
            line[0] = low;
            line[Q_LINE - 1] = aces - low;
            int found = st_line_groups(line, Q_LINE, NULL);
            if (found > best)
                best = found;
        }
        total += best;
    }
    return PyLong_FromLong(total);
}
