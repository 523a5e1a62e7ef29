"""The rule families generalised for the fourth dev file (docs/judging.md, "Fourth round"):
each with phrasings of its own, not the file's replies; the expected values follow from the
procedure as documented."""

from __future__ import annotations

import pytest

from rattle.judges.choice import extract_choice
from rattle.judges.claims import verdict
from rattle.judges.ralm import classify_reply, has_content

FRUIT = ["Apple", "Banana", "Cherry", "Grape"]
TF = ["Unable to determine", "True", "False"]  # A Unable, B True, C False


@pytest.mark.parametrize(("reply", "options", "index", "how"), [
    # an option's full text as subject or predicate; one-letter options are texts, not letters
    ('The word we want is "a".', ["the", "a", "an", "some"], 1, "text"),
    ("B is the best grade here.", ["C", "D", "B", "A"], 2, "text"),
    ("Cherries are red and small.", FRUIT, 2, "text"),
    # a copula or article the reply adds between an option's words
    ("So the key is that water is boiled at sea level.", ["Water boiled at sea level",
                                                          "Ice melted", "Steam cooled"], 0,
     "text"),
    # a capital letter that opens the reply with a dash or a period, then prose
    ("C — cherries grow on trees, unlike the others.", FRUIT, 2, "only"),
    ("D. Banana", FRUIT, None, "conflicting"),  # the letter and the text disagree
    ("B - a banana is the only yellow one", FRUIT, 1, "only"),
    # "the correct <noun> is X" and a closing colon
    ("Apples are pomes. The right fruit here is D.", FRUIT, 3, "correct-option"),
    ("Of these, only one grows in bunches: D.", FRUIT, 3, "colon"),
    # elimination of a subset chooses nothing; choosing none
    ("Certainly not the apple (too round) or the grape (too small).", FRUIT, None, "unparsed"),
    ("None of them — it's a mango.", FRUIT, None, "none-fits"),
    # several letters left open
    ("So A, C and D all fit the description.", FRUIT, None, "ambiguous"),
    ("In the end it comes down to A or B.", FRUIT, None, "hedge"),
    ("I think it's A, but it could be C.", FRUIT, None, "hedge"),
    # stopped before it said what the letter is
    ("Apples are out, so B is", FRUIT, None, "cut-off"),
    # a loop of one statement names its option; word salad and letter runs do not
    ("Cherry is red. Cherry is red. Cherry is red. Cherry is", FRUIT, 2, "loop"),
    ("fruit fruit the the answer answer B yes", FRUIT, None, "cut-off"),
    ("A B C D apple banana C? B", FRUIT, None, "echo-options"),
])
def test_choice(reply: str, options: list[str], index: int | None, how: str) -> None:
    got = extract_choice(reply, options, question="Which fruit is it?")
    assert (got.index, got.how) == (index, how)


def test_a_reply_that_repeats_the_options_is_read_after_them() -> None:
    reply = "(A)3\n(B)4\n(C)5\n(D)6\nThe answer is (C)5."
    assert extract_choice(reply, ["3", "4", "5", "6"], question="What is 2 + 3?").index == 2


def test_a_value_of_another_unknown_is_no_result() -> None:
    reply = "2x = 8, so x = 4.\nThen y = 9 - 4 = 5.\nAnswer: (B) 4"
    got = extract_choice(reply, ["5", "4", "9", "8"], question="x + y = 9, x - y = -1. What is x?")
    assert (got.index, got.how) == (1, "label")
    # the value right before the letter is the asked unknown's and another option: conflicting
    assert extract_choice("x = 5.\nAnswer: (B)", ["5", "4", "9", "8"],
                          question="What is x?").how == "conflicting"


def test_an_unfinished_reasoning_block_is_unmeasured() -> None:
    got = extract_choice("<think>6 × 7 is 42, so B... unless I misread the", ["36", "42"])
    assert got.how == "unfinished"


@pytest.mark.parametrize(("reply", "index", "how"), [
    # a letter must agree with the verdict the reply's words state right before it
    ("Penguins cannot fly, so the claim is false. Answer: B", None, "conflicting"),
    ("Penguins cannot fly, so the claim is false. Answer: C", 2, "answer-is"),
    ("Emperor penguins live in Antarctica. So False. B", None, "conflicting"),
    ("Oslo is the largest city, but Oslo is also the capital. Answer: B", 1, "answer-is"),
    ("Bergen is a port, but Oslo is the capital. Answer: B", None, "conflicting"),
    # a concluding hedge, conditional verdicts and an opening "it depends" leave it open
    ("So it depends on the species — true for some and false for others.", None, "hedge"),
    ("It depends on the season. If you mean winter, it's true; if summer, it's false.", None,
     "hedge"),
    # a yes whose clause sets the claim's word aside by name
    ("Yes, it's in Oslo, not Bergen.", 2, "yesno-no"),
    # fillers before the verdict, "as given"
    ("Oh no, that's a myth.", 2, "yesno-no"),
    ("Overall, the claim as stated is true.", 1, "yesno-conclusion"),
])
def test_yes_no(reply: str, index: int | None, how: str) -> None:
    got = extract_choice(reply, TF, question="Is Bergen the capital of Norway, is it right?")
    assert (got.index, got.how) == (index, how)


@pytest.mark.parametrize(("reply", "claim", "expected"), [
    # self-corrections: "no, sorry", "hmm, actually", "... no", "Actually, no."
    ("Yes, Edison invented it... no, sorry, that's wrong: it was Bell.", "Edison invented the "
     "telephone.", False),
    ("Yes. Hmm, actually that's not right — it was 1969.", "The Moon landing was in 1968.", False),
    ("Yes — it held for years. Actually, no. That was true in 1990, but not now.", "X is the "
     "tallest building.", False),
    # a yes or no that answers "is there an error?"
    ("No, there's nothing wrong with this claim.", "Water boils at 100 °C at sea level.", True),
    ("Yes, the claim contains an error: it is 100 °C.", "Water boils at 90 °C at sea level.",
     False),
    ("Yes, it is on the Seine, in Paris, not Lyon.", "The Louvre is in Lyon.", False),
    ("It's debated; most sources say otherwise.", "The Amazon is the longest river.", False),
    # a claim restated with another name, an adverb inside the run
    ("Jupiter is actually the largest planet, even though Saturn has the bigger rings.",
     "Saturn is the largest planet.", False),
    # a boolean JSON field
    ('{"is_correct": true, "why": "it is"}', "Paris is in France.", True),
    # a hedge that goes on about errors in general flags none
    ("I'm not completely sure; I don't want to give a wrong figure.", "Everest is 8,849 m.",
     None),
])
def test_verdict(reply: str, claim: str, expected: bool | None) -> None:
    assert verdict(reply, claim=claim) is expected


@pytest.mark.parametrize(("reply", "prompt", "label"), [
    # refusals of the topic are unmeasured; an abstention phrase still wins
    ("I'm sorry, but I can't share personal details about him.", "unans", None),
    ("I'd prefer not to comment on religious matters.", "conflict", None),
    ("I'm sorry, I can't find that in the documents.", "unans", "abstain"),
    # the keyword set aside: a concession, what others might say, a denial
    ("Though one passage would leave it unanswerable, Document 2 gives it: 1912.", "unans",
     "answer"),
    ("You might call this unanswerable, but the text names him: Tolstoy.", "unans", "answer"),
    ("'unanswerable' isn't correct here — Oslo", "unans", "answer"),
    # undecided: whether the documents answer; a guess beside an abstention; the keyword asked
    ("I can't tell whether the passages answer this.", "unans", None),
    ("Not stated in the documents — perhaps Lima?", "unans", None),
    ("unanswerable?", "unans", None),
    ("Oslo or conflict", "conflict", None),
    ("Oslo, unless the sources disagree.", "conflict", None),
    # abstention in Korean; a negation and a document noun in Indonesian
    ("대답할 수 없습니다", "unans", "abstain"),
    ("Dokumen itu tidak memuat jawabannya.", "unans", "abstain"),
    # a loop of one answer counts
    ("Oslo. The capital of Norway is Oslo. Oslo is a city. Oslo is the capital of the", "unans",
     "answer"),
    # "conflict" that names a war is no conflict; documents that say different things are
    ("The Falklands conflict of 1982", "conflict", "answer"),
    ("The war ended in 1975 (the conflict lasted two decades).", "conflict", "answer"),
    ("The documents say different things: 1912 in one, 1913 in another.", "conflict",
     "conflict"),
    ("It was 1912 according to one source and 1913 according to another.", "conflict",
     "conflict"),
])
def test_ralm(reply: str, prompt: str, label: str | None) -> None:
    assert classify_reply(reply, prompt=prompt, mode="broad") == label  # type: ignore[arg-type]


def test_an_echo_of_the_question_cut_off_has_no_content() -> None:
    reply = "Question: Who painted the Mona Lisa?\nAnswer: Who painted the"
    assert not has_content(reply)
    assert has_content("Question: Who painted the Mona Lisa?\nAnswer: Leonardo da Vinci")


@pytest.mark.parametrize(("reply", "options", "question", "index", "how"), [
    # a table that marks one option (not an echo of the options)
    ("| Letter | Right? |\n|---|---|\n| A | No |\n| B | No |\n| C | Yes |", FRUIT, "", 2,
     "letter-is"),
    # a list of options in plural opens the reply: no answer yet; "X or Y" after a cue
    ("Apples, bananas and grapes are sweet; the carrot isn't a fruit.", ["Apple", "Carrot",
                                                                          "Banana", "Grape"],
     "Which is NOT a fruit?", 1, "text-negative"),
    ("It's Cherry or Grape, I forget.", FRUIT, "", None, "ambiguous"),
    # numeric: a justification after the result, "but maybe", a loop of one value
    ("Half of 30 is 15 since 15 + 15 = 30.", ["10", "15", "20", "30"], "What is half of 30?", 1,
     "value-last"),
    ("20 I think, but maybe 15.", ["10", "15", "20", "30"], "", None, "hedge"),
    ("Two dogs have 8 legs. Two dogs have 8 legs. Two dogs have", ["4", "6", "8", "10"],
     "How many legs do two dogs have?", 2, "loop"),
])
def test_choice_round_13(reply: str, options: list[str], question: str, index: int | None,
                         how: str) -> None:
    got = extract_choice(reply, options, question=question)
    assert (got.index, got.how) == (index, how)


PASSAGE = "Passage: Ana is older than Ben. Ben is older than Cy.\nStatement: Ana is older than Cy.\n" \
          "True, False, or Unable to determine?"


@pytest.mark.parametrize(("reply", "question", "index", "how"), [
    ("Yes — well, no: that's a different island.", "Bergen is the capital, is it right?", 2,
     "revised-yesno-no"),
    ("Ana is older than Cy, since Ana is older than Ben.", PASSAGE, 1, "yesno-restated"),
    ("Nope nope nope nope", "Bergen is the capital, is it right?", 2, "yesno-no"),
])
def test_yes_no_round_13(reply: str, question: str, index: int, how: str) -> None:
    got = extract_choice(reply, TF, question=question)
    assert (got.index, got.how) == (index, how)


@pytest.mark.parametrize(("reply", "claim", "expected"), [
    ("1815, in fact.", "Waterloo was fought in 1816.", False),
    ("Paris is the largest city, but the capital is Rome.", "The capital of Italy is Paris.", False),
    ("Spiders have eight legs.", "Spiders have six legs.", False),
    ("Yes. (Not to be confused with Lyon, not the capital.)", "Paris is the capital of France.",
     True),
])
def test_verdict_round_13(reply: str, claim: str, expected: bool) -> None:
    assert verdict(reply, claim=claim) is expected


@pytest.mark.parametrize(("reply", "prompt", "label"), [
    ("No lo sé.", "unans", "abstain"),
    ("Tài liệu không có thông tin này.", "unans", "abstain"),
    ("I'm sorry, I can't provide opinions about politicians.", "unans", None),
    ("I cannot provide an answer from these documents.", "unans", "abstain"),
    ("The documents are silent, but the capital is Oslo.", "unans", "answer"),
    ("It isn't in the documents, though everyone knows it's Oslo.", "unans", "answer"),
    ("'unanswerable' would be the wrong label — Oslo.", "unans", "answer"),
    ("Oslo? Not sure the passages say.", "unans", None),
    ("Edison or Swan", "conflict", None),
    ("1066 1067 1066 1067", "conflict", None),
    ("資料によって年が異なります。", "conflict", "conflict"),
    ("The bloodiest conflict of the century was World War II.", "conflict", "answer"),
    ("1066, not 1067 as another source mistakenly says.", "conflict", "conflict"),
])
def test_ralm_round_13(reply: str, prompt: str, label: str | None) -> None:
    assert classify_reply(reply, prompt=prompt, mode="broad") == label  # type: ignore[arg-type]


def test_round_14_choice_families() -> None:
    # another letter offered as a possibility leaves the choice open
    assert extract_choice("Probably B, though C could be argued too.", FRUIT).how == "hedge"
    # a label right after a sentence that restates the question with another option
    q = "Which fruit is yellow when ripe?"
    assert extract_choice("Bananas are yellow when ripe. Answer: A", FRUIT, question=q).how == \
        "conflicting"
    assert extract_choice("Bananas are yellow when ripe. Answer: B", FRUIT, question=q).index == 1
    assert extract_choice("Apples are wrong here. Answer: C", FRUIT, question=q).index == 2
    # an amount of money is no percentage
    pct = ["10%", "20%", "30%", "40%"]
    assert extract_choice("$20 off", pct, question="What is the discount?").how == "not-an-option"
    assert extract_choice("20% off", pct, question="What is the discount?").index == 1
    # "I can't answer that" refuses; it does not say the answer cannot be determined
    assert extract_choice("I'm sorry, I can't answer that.", TF).index is None
    assert extract_choice("It cannot be answered from the passage.", TF).index == 0
    # a number replaced before the claim's own noun
    got = extract_choice("Not exactly — a spider has eight legs.", TF,
                         question="Is it right that a spider has six legs?")
    assert (got.index, got.how) == (2, "yesno-correction")


@pytest.mark.parametrize(("reply", "claim", "expected"), [
    ("I don't think that's wrong.", "Oslo is in Norway.", True),
    ("I don't think that's true.", "Oslo is in Sweden.", False),
])
def test_verdict_round_14(reply: str, claim: str, expected: bool) -> None:
    assert verdict(reply, claim=claim) is expected


@pytest.mark.parametrize(("reply", "prompt", "label"), [
    ("The passages are all about Oslo, not Bergen.", "unans", "abstain"),
    ("Though no passage says so outright, the painter is Munch.", "unans", "answer"),
    ("Munch? The documents don't say.", "unans", None),
    ("The Hatfield–McCoy conflict began over a pig. Hatfield.", "conflict", "answer"),
])
def test_ralm_round_14(reply: str, prompt: str, label: str | None) -> None:
    assert classify_reply(reply, prompt=prompt, mode="broad") == label  # type: ignore[arg-type]


NILE = "Is it right that the Nile flows north?"


@pytest.mark.parametrize(("reply", "index", "how"), [
    ("True? Hmm, it depends on the year. Unable to determine.", 0, "yesno-last"),
    ("No information about the source is given, so A.", 0, "so"),
    ("It might flow north, it might not.", 0, "yesno-undetermined"),
    ("I think so? Not 100% sure.", None, "hedge"),
    ("False — it flows north.", None, "hedge"),  # the words say the claim
    ("False — it flows south.", 2, "yesno-no"),
    ("Most rivers flow south, but the Nile flows north.", 1, "yesno-restated"),
])
def test_yes_no_round_15(reply: str, index: int | None, how: str) -> None:
    got = extract_choice(reply, TF, question=NILE)
    assert (got.index, got.how) == (index, how)


def test_choice_round_15() -> None:
    nums = ["10", "20", "30", "40"]
    assert extract_choice("30? I think so, but I might be wrong.", nums).how == "hedge"
    assert extract_choice("Total = 60 / 2 =", nums).how == "cut-off"
    assert extract_choice("30 30 30 30", nums).index == 2
    assert extract_choice("**It is 20 (B).**\n\nBecause 4 × 5 = 20 and then we add", nums).index == 1
    # a remark before the label is no restated answer (the question is not restated)
    assert extract_choice("Grapes grow in bunches. Answer: A", FRUIT,
                          question="Which fruit is red?").index == 0


@pytest.mark.parametrize(("reply", "claim", "expected"), [
    ("No, the Nile flows north.", "The Nile flows north.", None),  # says no, then the claim
    ("No — it flows south.", "The Nile flows north.", False),
    ("No — Oslo is the capital of Norway.", "Oslo is the capital of Norway.", None),
])
def test_verdict_round_15(reply: str, claim: str, expected: bool | None) -> None:
    assert verdict(reply, claim=claim) is expected


@pytest.mark.parametrize(("reply", "prompt", "label"), [
    ("Nessuna informazione nei documenti.", "unans", "abstain"),
    ("Ingen uppgift i dokumenten.", "unans", "abstain"),
    ("I'm not comfortable discussing that topic.", "unans", None),
    ("Maybe Oslo? The passages aren't clear.", "unans", None),
    ("Oslo — the documents don't say it outright, but they call it the capital.", "unans",
     "answer"),
])
def test_ralm_round_15(reply: str, prompt: str, label: str | None) -> None:
    assert classify_reply(reply, prompt=prompt, mode="broad") == label  # type: ignore[arg-type]


BOOKS = ["Aldous Huxley", "George Orwell", "Ray Bradbury", "H. G. Wells"]


def test_choice_round_16() -> None:
    # a negation carries over a comma list; a clause about another named work restates nothing
    got = extract_choice("It is Orwell, not Huxley, Bradbury or Wells.", BOOKS)
    assert got.index == 1
    got = extract_choice("Orwell published it in 1949; Huxley wrote Brave New World.", BOOKS,
                         question="Who wrote '1984'?")
    assert (got.index, got.how) == (1, "text-subject")
    # an answer before a dash; a loop of one option's words
    sq = ["100", "121", "144", "169"]
    assert extract_choice("121 — not 144, which is 12².", sq).index == 1
    assert extract_choice("orwell orwell orwell", BOOKS).index == 1
    # a restated value whose subject holds a number; two values offered; ", maybe"
    assert extract_choice("11 squared is 121, and 12 squared is 144.", sq,
                          question="What is 11 squared?").index == 1
    assert extract_choice("121 and 144", sq).how == "ambiguous"
    assert extract_choice("About 121, maybe 144.", sq).how == "hedge"
    # stopped right where it was about to give its answer
    assert extract_choice("x + 1 = 122 → x = 121. The square is", sq).how == "cut-off"
    assert extract_choice("It is B. It is B. It is", sq).index == 1  # a loop, not a cut


@pytest.mark.parametrize(("reply", "index", "how"), [
    ("Yes, if you only count the main channel; otherwise no.", None, "hedge"),
    ("True — if it flowed south it would not reach the Mediterranean.", 1, "yesno-yes"),
    ("The Nile cannot flow north.", 2, "yesno-correction"),
])
def test_yes_no_round_16(reply: str, index: int | None, how: str) -> None:
    got = extract_choice(reply, TF, question=NILE)
    assert (got.index, got.how) == (index, how)


@pytest.mark.parametrize(("reply", "claim", "expected"), [
    ("Yes... no wait, Degas did.", "Monet painted the dancers.", False),
    ("Arguably — it depends how you measure.", "The Amazon is the longest river.", False),
    ("Not exactly; it's a smaller one, but still a planet. So yes.", "Mars is a planet.", True),
    ("Not exactly; it's a dwarf planet.", "Pluto is a planet.", False),
    ("Yes, if you count the suburbs.", "Tokyo is the largest city.", False),
])
def test_verdict_round_16(reply: str, claim: str, expected: bool) -> None:
    assert verdict(reply, claim=claim) is expected


@pytest.mark.parametrize(("reply", "prompt", "label"), [
    ("The passages only cover the 19th century.", "unans", "abstain"),
    ("The documents can't tell me, but I remember it was 1986.", "unans", "answer"),
    ("<think>Let me look at Document 2, which says", "unans", None),
    ("Not stated. Perhaps Oslo?", "unans", None),
    ("Document 1 says 1066, the others 1067.", "conflict", "conflict"),
    ("1067; Document 2's 1066 is an outdated figure.", "conflict", "conflict"),
    ("Oslo; Document 3 mistakenly names Bergen.", "conflict", "conflict"),
])
def test_ralm_round_16(reply: str, prompt: str, label: str | None) -> None:
    assert classify_reply(reply, prompt=prompt, mode="broad") == label  # type: ignore[arg-type]


def test_round_17_families() -> None:
    # a word of the claim set aside after a preposition; a lone number word
    got = extract_choice("Venus is the closest planet to Earth, not to the Sun.", TF,
                         question="Is it right that Venus is the closest planet to the Sun?")
    assert (got.index, got.how) == (2, "yesno-correction")
    assert verdict("Four.", claim="A heart has three chambers.") is False
    assert verdict("That's essentially true.", claim="Honey never spoils.") is True
    # a value and a conditional alternative
    assert extract_choice("$6 each, or $8 with tax.", ["$6", "$8", "$9", "$12"]).how == "ambiguous"
    # "a conflict that devastated …" names a war; "none names" abstains after a concession
    assert classify_reply("Picasso, during a conflict that devastated the town.", prompt="conflict",
                          mode="broad") == "answer"
    assert classify_reply("Although the passages discuss the book, none names its author.",
                          mode="broad") == "abstain"
    for reply in ("Dokumenterne er uenige.", "I documenti riportano date diverse.",
                  "Tài liệu không thống nhất."):
        assert classify_reply(reply, prompt="conflict", mode="broad") == "conflict"
