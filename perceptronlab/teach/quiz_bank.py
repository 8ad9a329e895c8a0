"""The fixed questions of the self-test: the question cards and the conceptual multiple-choice
questions, the facts of the lecture notes' self-test and of Lin's quizzes in the project's words."""

from __future__ import annotations

from perceptronlab.teach.questions import Question, choice


def _card(qid: str, topic: str, prompt: str, answer: str) -> Question:
    return Question(qid, topic, "card", prompt, answer, answer)


#: the question cards: the facts of the lecture's self-test, in the project's words
CARDS: tuple[Question, ...] = (
    _card(
        "card-algorithm",
        "update",
        "State the perceptron algorithm: when is a point a mistake, and what is the update?",
        "Start at w = 0. Visit the points in turn; if y⟨w,x⟩ ≤ 0, set w ← w + yx, otherwise "
        "keep w. Repeat whole sweeps until one sweep makes no update.",
    ),
    _card(
        "card-sgd",
        "sgd",
        "In what sense is the perceptron stochastic gradient descent, and on which loss?",
        "On the linear loss max{0, −y⟨w,x⟩}: its gradient is −yx on a misclassified point and 0 on a correct "
        "one, so an SGD step with step size 1 is w + yx exactly on mistakes.",
    ),
    _card(
        "card-distance",
        "distance",
        "Derive the distance of a point x to the hyperplane ⟨w,x⟩ = 0.",
        "Write x = h + r·w/‖w‖ with h on the hyperplane. Taking ⟨·,w⟩ and ⟨h,w⟩ = 0 gives ⟨x,w⟩ = r‖w‖, so "
        "r = ⟨w,x⟩/‖w‖; with the label, y⟨w,x⟩/‖w‖ is positive on the correct side.",
    ),
    _card(
        "card-margin",
        "margin",
        "What is the margin of a separating hyperplane?",
        "The smallest signed distance of a training point to it: ρ = min_i y_i⟨w,x_i⟩/‖w‖. Rescaling w does "
        "not change it.",
    ),
    _card(
        "card-theorem-1",
        "theorem 1",
        "State the mistake bound (Theorem 1) with all its assumptions.",
        "If every ‖x_i‖ ≤ R and some w* separates the points with margin ρ > 0, the perceptron makes at most "
        "R²/ρ² mistakes, in any order, and then classifies every training point correctly (Novikoff 1962).",
    ),
    _card(
        "card-proof",
        "proof",
        "What are the three steps of the proof of the mistake bound?",
        "(1) Each mistake adds at most R² to ‖w‖² (the cross term 2y⟨w,x⟩ is ≤ 0), so ‖w‖² ≤ M·R². "
        "(2) Each mistake adds at least ρ to ⟨w*,w⟩/‖w*‖, so M·ρ ≤ ‖w‖ by Cauchy–Schwarz. "
        "(3) Together M²ρ² ≤ M·R², so M ≤ R²/ρ².",
    ),
    _card(
        "card-independent",
        "theorem 1",
        "What does the mistake bound not depend on, and why does that matter?",
        "Not on the dimension d, not on the number of points n, not on the order or the learning rate: only "
        "the geometry (R and ρ) counts, so high-dimensional data is no obstacle when the margin is large.",
    ),
    _card(
        "card-theorem-2",
        "theorem 2",
        "State the test-error bound (Theorem 2) and its rate.",
        "For separable data, the perceptron trained on n points to zero training error has expected test "
        "error at most E[R²/ρ²]/(n + 1) over n + 1 points; with R ≤ R* and ρ ≥ ρ*, at most "
        "R*²/ρ*²/(n + 1): the fast rate 1/n, free of the dimension.",
    ),
    _card(
        "card-loo",
        "leave-one-out",
        "What is the leave-one-out principle, and what role does it play in Theorem 2?",
        "The mean leave-one-out error over n + 1 points is an unbiased estimate of the expected "
        "test error after training on n. A point that never caused an update can be left out without changing "
        "the result, so the leave-one-out errors are at most the mistakes on n + 1 points, at most R²/ρ².",
    ),
    _card(
        "card-non-separable",
        "non-separable",
        "What changes when the data is not linearly separable?",
        "The perceptron never converges and Theorem 1 says nothing. With slacks δ_i = max{0, ρ − y_i⟨w,x_i⟩} "
        "and D = (Σδ_i²)^½ the updates are at most (R + D)²/ρ² (Freund–Schapire); the test error then only "
        "scales as 1/√n. The pocket keeps the w with the fewest training errors.",
    ),
    _card(
        "card-eta",
        "learning rate",
        "Does the learning rate η change the perceptron started at w = 0?",
        "No: by induction every w_t is η times the w_t of η = 1, so every sign y⟨w,x⟩ and every update is the "
        "same, and so is the number of mistakes.",
    ),
)


#: the conceptual multiple-choice questions (options shuffled per quiz)
CHOICES: tuple[Question, ...] = (
    choice(
        "choice-loss",
        "sgd",
        "The perceptron is SGD with step size 1 on which loss?",
        (
            "the linear loss max{0, −y⟨w,x⟩}",
            "its gradient −yx on a mistake gives the update w + yx.",
        ),
        [
            (
                "the hinge loss max{0, 1 − y⟨w,x⟩}",
                "hinge",
                "the hinge loss also updates correct points with "
                "y⟨w,x⟩ < 1: that is the margin perceptron.",
            ),
            (
                "the squared loss (y − ⟨w,x⟩)²",
                "squared",
                "its gradient is nonzero on correct points too (the Widrow–Hoff rule).",
            ),
            (
                "the 0-1 loss",
                "zero-one",
                "its gradient is 0 almost everywhere: no step would ever be taken.",
            ),
        ],
        "On a mistake the linear loss has gradient −yx; a step of size 1 is w + yx.",
    ),
    choice(
        "choice-depends",
        "theorem 1",
        "The mistake bound R²/ρ² depends on",
        (
            "only the radius R of the data and the margin ρ",
            "the bound holds for any dimension, size and order.",
        ),
        [
            (
                "the dimension d and the number of points n",
                "not-d",
                "neither d nor n appears in R²/ρ².",
            ),
            (
                "the learning rate and ρ",
                "eta-in-bound",
                "started at 0, the learning rate changes nothing: it scales w, not the signs.",
            ),
            (
                "R, ρ and the order of the points",
                "order",
                "the actual count may depend on the order; the bound does not.",
            ),
        ],
        "R²/ρ² holds for every order, dimension and learning rate.",
    ),
    choice(
        "choice-rate",
        "theorem 2",
        "With margin ρ* and radius R*, the perceptron's test error decays like",
        ("1/n", "R*²/ρ*²/(n + 1): a fast rate, free of the dimension."),
        [
            ("1/√n", "slow-rate", "that is the rate without separability."),
            ("d/n", "not-d", "the dimension does not appear."),
            ("e^(−n)", "exponential", "no such rate: the bound is R*²/ρ*²/(n + 1)."),
        ],
        "Theorem 2: at most R*²/ρ*²/(n + 1).",
    ),
    choice(
        "choice-eta",
        "learning rate",
        "Started at w = 0 with w ← w + ηyx and η = 5 instead of 1, the perceptron",
        (
            "makes exactly the same mistakes, with every w five times larger",
            "every w_t is scaled by η, which changes no sign of y⟨w,x⟩.",
        ),
        [
            (
                "makes about five times fewer mistakes",
                "eta-divides-mistakes",
                "no sign changes, so no mistake is saved.",
            ),
            (
                "makes about five times more mistakes",
                "eta-multiplies-mistakes",
                "no sign changes, so no mistake is added.",
            ),
            (
                "may no longer converge",
                "eta-diverges",
                "it converges exactly when the η = 1 run does.",
            ),
        ],
        "η-invariance: w_t(η) = η·w_t(1).",
    ),
    choice(
        "choice-tie",
        "ties",
        "Why must y⟨w,x⟩ = 0 count as a mistake?",
        (
            "otherwise the perceptron would never leave w = 0",
            "at w = 0 every point has y⟨w,x⟩ = 0; with a "
            "strict test nothing would ever be updated.",
        ),
        [
            (
                "because the linear loss is positive at 0",
                "loss-at-zero",
                "the linear loss is 0 at 0.",
            ),
            (
                "because points on the hyperplane have margin ρ",
                "margin-on-plane",
                "points on the hyperplane have distance 0.",
            ),
            (
                "because the mistake bound needs R > 0",
                "radius",
                "R has nothing to do with the tie rule.",
            ),
        ],
        "Ties count (≤, not <), or the run could not start.",
    ),
    choice(
        "choice-loo",
        "leave-one-out",
        "Which statement about leave-one-out is true?",
        (
            "the mean leave-one-out error on n + 1 points is an unbiased estimate of the expected test error "
            "after training on n",
            "this holds for any learner and any i.i.d. data.",
        ),
        [
            (
                "the training error on n points is an unbiased estimate of the test error",
                "training-error",
                "the training error is optimistic (biased).",
            ),
            (
                "leave-one-out works only for linear classifiers",
                "linear-only",
                "the principle holds for any learner.",
            ),
            (
                "leave-one-out needs separable data",
                "separable-only",
                "it needs only i.i.d. data; separability is what the perceptron's bound adds.",
            ),
        ],
        "Leave-one-out on n + 1 points estimates the test error after n, without bias.",
    ),
    choice(
        "choice-pocket",
        "pocket",
        "On data that is not linearly separable, the pocket algorithm returns",
        (
            "the w with the fewest training errors among those the perceptron visited",
            "it runs the perceptron and keeps the best w seen so far in its pocket.",
        ),
        [
            (
                "the perceptron's last w",
                "last-iterate",
                "the last w can be arbitrarily bad: the run never settles.",
            ),
            (
                "a w with zero training errors",
                "separable-only",
                "none exists on non-separable data.",
            ),
            (
                "the average of all visited w",
                "averaged",
                "that is the averaged perceptron, another member of the family.",
            ),
        ],
        "Pocket (Lin): keep the best w seen so far, by training errors.",
    ),
    choice(
        "choice-update-grows",
        "update",
        "After the update w' = w + yx on a mistake at (x, y), which statement always holds?",
        (
            "y⟨w',x⟩ ≥ y⟨w,x⟩",
            "y⟨w',x⟩ = y⟨w,x⟩ + ‖x‖²: the score of that point grows by ‖x‖² (Lin's lecture 2).",
        ),
        [
            (
                "sign⟨w',x⟩ = y",
                "one-update-fixes",
                "one update need not fix the point: the score grows by ‖x‖², "
                "which may not be enough.",
            ),
            (
                "⟨w',x⟩ = y",
                "update-solves",
                "the update is a fixed step, not a solution of ⟨w,x⟩ = y.",
            ),
            ("y⟨w',x⟩ < y⟨w,x⟩", "update-subtracted", "the score grows: y⟨yx,x⟩ = ‖x‖² ≥ 0."),
        ],
        "y⟨w + yx, x⟩ = y⟨w,x⟩ + y²‖x‖² = y⟨w,x⟩ + ‖x‖².",
    ),
    choice(
        "choice-pocket-separable",
        "pocket",
        "On data that is linearly separable, how does the pocket algorithm "
        "compare with the plain perceptron?",
        (
            "it is slower, and returns a w just as good",
            "both end with zero training errors; the pocket also "
            "counts the errors of every new w, which costs a pass over the data.",
        ),
        [
            (
                "it is faster",
                "pocket-faster",
                "it does the perceptron's updates and more: the error counts.",
            ),
            (
                "it returns a better w",
                "pocket-better",
                "both reach zero training errors on separable data.",
            ),
            (
                "it returns a worse w",
                "pocket-worse",
                "the pocket keeps the best w, and on separable data the "
                "perceptron's last w is already perfect on the training data.",
            ),
        ],
        "Lin's lecture 2: pocket and PLA agree on separable data; pocket pays for its error counts.",
    ),
    choice(
        "choice-online",
        "online",
        "In the online protocol, when does the learner see the label y_t?",
        (
            "after it has predicted sign⟨w,x_t⟩ with its current w",
            "predict first, then the label is revealed as feedback and used to update.",
        ),
        [
            (
                "before it predicts, to choose the update",
                "label-before-prediction",
                "using y_t before "
                "predicting is the online slip: the prediction must not know the label.",
            ),
            (
                "only at the end of a sweep",
                "batch",
                "online means one point at a time: predict, see y_t, update.",
            ),
            (
                "never: it learns without labels",
                "unsupervised",
                "the update w + yx needs the label.",
            ),
        ],
        "Online: predict with w, then see y_t, then update on a mistake.",
    ),
    choice(
        "choice-spam",
        "features",
        "A perceptron flags spam: each email is described by how often each of some keywords occurs "
        "in it, and the output +1 means spam. Which keywords should get large positive weights in a "
        "good perceptron for this task? (Lin's lecture 2, Fun Time)",
        (
            "free, drug, fantastic, deal",
            "these words are far more frequent in spam: each occurrence should push ⟨w,x⟩ towards "
            "+1, so their weights are large and positive.",
        ),
        [
            (
                "coffee, tea, hamburger, steak",
                "neutral-words",
                "everyday words, about as frequent in normal email as in spam: they tell the "
                "classes apart poorly, so their weights stay near 0.",
            ),
            (
                "machine, learning, statistics, textbook",
                "sign-reversed",
                "words of a course's own mail: they point to a normal email (−1), so a good "
                "perceptron gives them negative weights, if any.",
            ),
            (
                "national, Taiwan, university, coursera",
                "sign-reversed",
                "words of the sender's legitimate mail (the course's university and platform): "
                "they point to −1, not to spam.",
            ),
        ],
        "A weight's sign says which class a feature points to; spam words get large positive "
        "weights, the words of normal mail negative ones, uninformative words weights near 0.",
    ),
)
