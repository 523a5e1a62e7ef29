"""Yes / no in a reply: the shared lexicon of claim verdicts (``claims.verdict``) and yes/no
options (``choice`` on True / False / Unable to determine items).

- ``opener(clause)``: the verdict a clause opens with: "Yes", "Correct", "That's true", "I
  think so" (yes); "No", "False", "Not true", "That's a myth", "I don't think so" (no);
  "Partly", "Mostly right", "Not quite", "Close, but", "Yes and no" (partial); "Maybe", "Sort
  of", "I'm not sure", "the evidence is mixed" (hedge); "I cannot verify" (refusal). "No error",
  "No problem" are not a no; "No question about it", "Not false at all", "She did" are a yes.
- ``conceded(text)``: "True that she won, but …" concedes a part; what follows the "but"
  decides.
- ``statement(clause)``: a verdict stated anywhere in the clause ("the statement is false",
  "which is wrong", "this is a common misconception", "there is no error" = yes).
- ``correction(text)``: after a yes, does the reply take it back ("Yes, but it was 1802, not
  1822", "Yes, except the year is wrong", "However, that record was set in Berlin")? Error
  words count only when not negated ("no error", "nothing wrong", "not a misconception") and
  not said of other people ("many people mistakenly think").
- ``undetermined(text)``: the reply says the answer cannot be known from what it was given
  ("cannot be determined", "not enough information", "the text doesn't say", "Nu se poate
  determina", "Nie je možné určiť"); ``opens_undetermined`` when a clause opens with it.
"""

from __future__ import annotations

import re
from typing import Literal

Polarity = Literal["yes", "no", "partial", "hedge", "refusal"]

_FILLER = re.compile(r"^(?:[\s\W]|\b(?:well|hmm+|ok(?:ay)?|so|great question|good question|"
                     r"let me (?:check|think|see|double-check|re-?check|verify)|sure|alright|verdict|answer|final answer|"
                     r"response|short answer|in short|overall|generally|basically|technically|"
                     r"actually|honestly|then|therefore|thus|hence|and|but|however|"
                     r"correct\s+me\s+if\s+(?:i'?m|i\s+am)\s+wrong|uh+|um+|er+m?|ah+|oh+|ooh|lol|haha|lmao|"
                     r"essentially|roughly|approximately|more\s+or\s+less|broadly|surprisingly|"
                     r"interestingly|counterintuitively|strangely|believe\s+it\s+or\s+not|"
                     r"funnily\s+enough|slightly)\b)+", re.I)
_NO_IDIOM = (r"(?!\s+(?:doubt|question|problem|wonder|errors?|mistakes?|issues?|inaccurac\w*|information|"
             r"info|evidence|data|details?|mention|indication|records?|context|reason|"
             r"way\s+(?:to|of|around|out)|one|matter|need|worries|kidding|surprise|arguments?|"
             r"dispute|disagreement|denying|complaints?|(?:[\w-]+\s+){1,2}(?:found|detected)|"
             r"(?:[\w-]+\s+){0,2}(?:were|was)\s+(?:found|detected))\b)")
# ("No argument there", "No dispute": agreement; "No divisors found.": a finding, no verdict)
# Verdict words in the languages models answer in besides English (openers: "Sim, é verdade",
# "Das ist falsch", "否。", "いいえ").
_COPULA_XL = (r"(?:(?:das|es|c'est|c\s+est|isso|isto|esto|eso|questo|ci\u00f2|dat|het|\u044d\u0442\u043e)"
              r"\s+(?:ist|est|es|\u00e9|\u00e8|is)?\s*)")
_PUNCT_AFTER = r"(?=\s*(?:[,.!;:\u2014\u2013-]|$))"  # short words that are also other words
_YES_XL = (r"sim|s[\u00ed\u00ec]|ja|jawohl|oui|ano|\u0438\u04d9|\u0434\u04b1\u0440\u044b\u0441(?!\s+\u0435\u043c\u0435\u0441)|"
           r"\u10d3\u10d8\u10d0\u10ee|\u10d9\u10d8(?=\s*[,.!]|$)|\u00e1no|jah|j\u0101|j\u00e1|b\u0259li|ydy|"
           r"(?:bai|ie)(?=\s*(?:[,.!;:\u2014\u2013-]|$))|pareizi|r\u00e9tt|to\s+dr\u017ei|evet|\u0b86\u0bae\u0bcd|\u06c1\u0627\u06ba|"
           r"\u09b9\u09cd\u09af\u09be\u0981|benar|betul|\u0111\u00fang|ndiyo|kweli|"
           r"kyll\u00e4|igen|taip|opo|(?:tak|ya|jah|oo|tama)" + _PUNCT_AFTER + r"|"
           r"\u0442\u0430\u043a|\u03bd\u03b1\u03b9|\u0646\u0639\u0645|\u0635\u062d\u064a\u062d|"
           r"\u0628\u0644\u0647|\u05db\u05df|\u0939\u093e\u0901|\u0939\u093e\u0902|\u0938\u0939\u0940|"
           r"\u0e43\u0e0a\u0e48|\u0434\u0430|\u662f\u7684|\u662f|"
           r"\u5bf9|\u6b63\u786e|\u6ca1\u9519|\u306f\u3044|\u305d\u3046\u3067\u3059|"
           r"\u6b63\u3057\u3044|\ub124|\uc608|\ub9de\uc2b5\ub2c8\ub2e4|\u0432\u0435\u0440\u043d\u043e|"
           r"\u043f\u0440\u0430\u0432\u0438\u043b\u044c\u043d\u043e|" + _COPULA_XL
           + r"?(?:verdad(?:ero)?|verdade(?:iro)?|vero|vrai|wahr|richtig|correct[oa]|corretto|"
           r"certo|cierto|juist|waar|exact[oa]?|exato|esatto)")
_NO_XL = (r"n[\u00e3a]o|nein|non|nee|nej|nie|\u0939\u094b\u0907\u0928|\u0436\u043e\u049b|\u10d0\u10e0\u10d0|"
          r"n\u0113|xeyr|nepareizi|rangt|ne\s+dr\u017ei|"
          r"(?:na|ez|nac\u00e1u)(?=\s*(?:[,.!;:\u2014\u2013-]|$))|\u0b87\u0bb2\u0bcd\u0bb2\u0bc8|\u0646\u06c1\u06cc\u06ba|"
          r"\u09a8\u09be(?=\s*[,.!\u0964])|hay\u0131r|tidak|salah|bukan|kh\u00f4ng|hapana|si\s+kweli|"
          r"(?:nei|ne|nu|nem|ei|hindi|mali)" + _PUNCT_AFTER + r"|"
          r"\u043d\u0456|\u03cc\u03c7\u03b9|\u0644\u0627|\u062e\u0637\u0623|\u0646\u0647|\u05dc\u05d0|"
          r"\u0928\u0939\u0940\u0902|\u0917\u0932\u0924|\u0e44\u0e21\u0e48|\u043d\u0435\u0442|\u5426|\u4e0d\u5bf9|"
          r"\u4e0d\u662f|\u4e0d\u6b63\u786e|\u9519(?:\u8bef)?|\u3044\u3044\u3048|"
          r"\u9055\u3044\u307e\u3059|\uc544\ub2c8(?:\uc694|\uc624)|"
          r"\u043d\u0435\u0432\u0435\u0440\u043d\u043e|\u043d\u0435\u043f\u0440\u0430\u0432\u0438"
          r"\u043b\u044c\u043d\u043e|" + _COPULA_XL + r"?(?:falso|faux|falsch|sbagliato|errado|"
          r"incorrect[oa]|onjuist|fout|unwahr)")
_TRUTH = r"(?:true|correct|right|accurate|valid|factual|exact)"
_FALSE = (r"(?:false|incorrect|wrong|inaccurate|untrue|invalid|mistaken|misleading|exaggerated|"
          r"overstated|outdated|debunked|(?:just\s+|only\s+|merely\s+|simply\s+)?a\s+(?:common\s+|"
          r"popular\s+|widespread\s+|persistent\s+)?(?:myth|misconception|mistake|misunderstanding|"
          r"exaggeration|fabrication|legend|superstition|old\s+wives'\s+tale|urban\s+legend|misnomer)|"
          # a saying or a metaphor is dismissed only as "just" one ("a popular saying" describes)
          r"(?:just|only|merely|simply)\s+a\s+(?:\w+\s+)?(?:saying|figure\s+of\s+speech|metaphor|"
          r"expression)|an?\s+(?:myth|misconception|exaggeration|error|inaccuracy))")
_LIKELY = r"(?:(?:probably|likely|most\s+likely|definitely|clearly|certainly)\s+)?"
_SUBJ = (r"(?:the\s+(?:statement|claim|assertion|sentence|premise|answer|information|fact)"
         r"(?:\s+that\s+[^.!?]{1,150}?|\s*\"[^\"]{1,200}\"|\s*'[^']{1,200}')?"
         r"(?:,?\s+(?:as\s+(?:given|stated|written|phrased|worded|posed)|here|itself|above),?)?|"
         r"this(?:\s+(?:statement|claim|one))?|that(?:\s+(?:statement|claim|one))?|it|which)")
_COP = r"(?:'s|\s+is|\s+are|\s+was|\s+seems(?:\s+to\s+be)?|\s+appears(?:\s+to\s+be)?|\s+sounds)"
_ADV = (r"(?:\s+(?:completely|entirely|totally|simply|actually|definitely|therefore|thus|also|"
        r"indeed|absolutely|perfectly|quite|clearly|factually|historically))*")
_PARTIAL = re.compile(
    r"^(?:partly|partially|half|mostly|mainly|largely|somewhat|not\s+(?:entirely|completely|fully|"
    r"exactly|quite|necessarily|totally|wholly)|close|almost|nearly|yes\s+and\s+no|"
    r"only\s+partly|in\s+part|only\s+if|arguably|debatabl[ey]|(?:that|it)(?:'s|\s+is)\s+(?:debatable|debated|disputed|contested|"
    r"questionable|arguable|controversial)|not\s+always)\b"
    r"(?!\s+(?:because|due|since|as|thanks|owing)\b)|"
    # "Right year, wrong city": a part of the claim is right
    r"^(?:right|correct|accurate|true)\s+" + r"(?:year|date|time|name|place|location|number|figure|"
    r"person|people|city|country|team|month|day|century|decade|era|period|author|inventor|"
    r"winner|idea|gist|part|amount|event|sport|company|field)s?\b", re.I)
# Both verdicts at once ("Yes No", "Yes/No", "Yes or no": an echo of the instruction; "true for
# some and false for others").
_BOTH = re.compile(r"^(?:yes\W*(?:or\s+|/\s*)?no|no\W*(?:or\s+|/\s*)?yes|(?:true|yes|right)\s+(?:for|in)\s+"
                   r"(?:some|part|certain)\b[^.!?]*\b(?:false|no|wrong)\s+(?:for|in)\b)\b", re.I)
# After a verdict on part of the claim: the reply declines to confirm the rest.
UNSURE_AFTER = re.compile(
    r"\b(?:but|however|though|although|yet)\b[^.!?]{0,80}?(?:\b(?:need|have)\s+to\s+(?:double-?)?"
    r"(?:check|verify|confirm|look\s+up)|\b(?:can't|cannot|couldn't|could\s+not|unable\s+to|before\s+"
    r"I\s+(?:could|can))\s+(?:fully\s+)?(?:confirm|verify)|\bnot\s+(?:sure|certain)\s+(?:about|of|"
    r"whether|if))", re.I)
_HEDGE = re.compile(
    r"^(?:maybe|perhaps|possibly|(?:it|that|this)\s+depends|hard\s+to\s+say|difficult\s+to\s+"
    r"(?:say|tell|determine|verify)|(?:i'?m|i\s+am)\s+not\s+(?:sure|certain|completely\s+sure|"
    r"entirely\s+sure)|not\s+sure|unsure|i\s+(?:don't|do\s+not)\s+know|sort\s+of|kind\s+of|"
    r"it(?:'s|\s+is)\s+(?:hard|difficult)\s+to\s+(?:say|tell)|i\s+(?:think|believe)\s+"
    r"(?:that\s+)?(?:it|this|that)\s+(?:might|may|could)\b|"
    # "the evidence is mixed", "it's complicated", "the jury is still out"
    r"(?:the\s+)?(?:evidence|research|science|data|literature)\s+(?:is|are|seems|remains)\s+"
    r"(?:\w+\s+)?(?:mixed|inconclusive|divided|unclear|contested)|it(?:'s|\s+is)\s+(?:complicated|"
    r"not\s+(?:that\s+|so\s+)?(?:simple|clear-cut|black\s+and\s+white))|the\s+jury\s+is\s+"
    r"(?:still\s+)?out)", re.I)
_NO = re.compile(
    r"^(?:no" + _NO_IDIOM + r"|nope|nah|" + _NO_XL + r"|\u4e0d(?!\u77e5\u9053)|"
    r"not\s+a\s+chance|not\s+really|false|incorrect|not\s+(?:all|every|everyone|everything)\b|"
    r"not\s+any\s?more|no\s+longer|"
    r"wrong|inaccurate|untrue|not\s+(?:true|correct|right|accurate|so|at\s+all)|"
    r"(?:probably|likely|most\s+likely)\s+(?:not|false|no|incorrect|wrong)|negative|"
    r"(?:absolutely|certainly|definitely|of\s+course|surely|obviously|clearly|totally|really)\s+not|(?:absolutely|completely|"
    r"totally|entirely|definitely|certainly|clearly|simply|plainly|utterly|obviously)\s+(?:false|"
    r"wrong|incorrect|untrue|inaccurate)|"
    r"(?:it|that|this)\s+(?:doesn't|does\s+not)\s+check\s+out|"
    r"i(?:'d|\s+would)\s+say\s+no|"
    r"(?:that|this|it)(?:'s|\s+is)\s+(?:(?:mostly|largely|basically|essentially|just|simply|really|"
    r"actually|definitely|clearly|completely|totally)\s+)?(?:not\s+(?:true|correct|right|accurate)|"
    + _FALSE + r")|"
    r"i\s+(?:don'?t|do\s+not)\s+(?:think|believe)\s+(?:so|(?:that'?s|that\s+is|it'?s|it\s+is|"
    r"this\s+is)\s+" + _TRUTH + r")|i\s+(?:think|believe)\s+(?:it'?s|it\s+is|that'?s|that\s+is|"
    r"this\s+is)\s+" + _LIKELY + r"(?:not\s+" + _TRUTH + r"|" + _FALSE + r")|"
    r"(?:i'?m|i\s+am)\s+not\s+(?:sure|certain|convinced)\s+(?:that'?s|that\s+is|this\s+is|"
    r"it'?s|it\s+is|the\s+statement\s+is)\s+" + _TRUTH + r"|"
    r"(?:you(?:'re|\s+are))\s+(?:wrong|mistaken|incorrect)|i\s+(?:guess|suppose|reckon)\s+(?:it'?s\s+)?"
    r"(?:false|not|wrong|incorrect|no)|(?:it'?s|it\s+is|that'?s|that\s+is)\s+(?:the\s+(?:other\s+way\s+"
    r"around|opposite|reverse)|backwards|back\s+to\s+front))(?:\b|(?<=[^\x00-\u024f]))", re.I)
_YES = re.compile(
    r"^(?:yes|yeah|yep|yup|yea|da|" + _YES_XL + r"|correct|true|right|indeed|absolutely|exactly|"
    r"definitely|certainly|of\s+course|sure|affirmative|accurate|spot\s+on|precisely|bingo|"
    r"you\s+got\s+it|stimmt|klopt|"
    # "No argument there —", "No denying it.", "No doubt about it.": agreement idioms
    r"no\s+(?:arguments?|dispute|disagreement)(?:\s+(?:there|here|from\s+me))?(?=\s*(?:[,.!;:\u2014\u2013-]|$))|"
    r"no\s+(?:denying|disputing)\s+(?:it|that)\b|no\s+(?:doubt|question)\s+about\s+(?:it|that)"
    r"(?=\s*(?:[,.!;:\u2014\u2013-]|$))|"
    # "She did — …", "It is.", "Sure is.": a short answer that echoes the claim's verb
    r"(?:(?:he|she|it|they|that|this|there)\s+)?(?:did|does|do|is|was|are|were|has|have|had|can|"
    r"could|will)(?=\s*(?:[,.!;:\u2014\u2013-]|$))|"
    r"(?:probably|likely|most\s+likely)\s+(?:true|yes|correct|right)|i(?:'d|\s+would)\s+say\s+"
    r"(?:yes|so)|"
    r"(?:that|this|it)(?:'s|\s+is)\s+(?:(?:absolutely|completely|entirely|quite|perfectly|essentially|"
    r"basically)\s+)?" + _TRUTH + r"|you(?:'re|\s+are)\s+(?:(?:absolutely|completely|quite|totally|entirely)\s+)?"
    r"(?:correct|right)|i\s+(?:think|believe|guess)\s+so|"
    r"i\s+(?:think|believe)\s+(?:it'?s|it\s+is|that'?s|that\s+is|this\s+is)\s+" + _LIKELY + _TRUTH
    + r"|not\s+(?:false|wrong|incorrect|inaccurate|untrue|mistaken|a\s+myth)(?:\s+at\s+all)?|"
    r"i\s+(?:guess|suppose|reckon)\s+(?:it'?s\s+|that'?s\s+)?(?:true|correct|right|yes)|"
    r"(?:totally|completely|absolutely|entirely|quite|perfectly|100%|dead)\s+(?:right|correct|true|"
    r"accurate)|spot-on|"
    r"(?:it|that|this)(?:'s|\s+is)\s+(?:not|never)\s+(?:wrong|false|incorrect|inaccurate)|"
    # "I don't think that's wrong": the error denied
    r"i\s+(?:don'?t|do\s+not)\s+(?:think|believe)\s+(?:that'?s|that\s+is|it'?s|it\s+is|this\s+is)\s+"
    r"(?:wrong|false|incorrect|inaccurate|untrue|a\s+myth|a\s+mistake)|"
    # "No question about it — …", "No doubt.", "Without a doubt"
    r"no\s+(?:doubt|question)(?:\s+about\s+it)?(?=\s*(?:[,.!;:\u2014\u2013-]|$))|without\s+(?:a|any)\s+"
    r"doubt|undoubtedly|unquestionably)"
    r"(?:\b|(?<=[^\x00-\u024f]))(?!\s+(?:false|wrong|incorrect|untrue|not)\b)", re.I)
_NOT = r"not\s+(?:(?:entirely|completely|quite|fully|totally|wholly|100%|really|exactly)\s+)?"
_NO_STMT = re.compile(r"\b" + _SUBJ + _COP + _ADV + r"\s+(?:" + _NOT + _TRUTH + r"|" + _FALSE
                      + r")\b|\b" + _SUBJ + r"\s+(?:isn't|wasn't|aren't|is\s+not|was\s+not)\s+"
                      r"(?:(?:entirely|completely|quite|fully|totally|really|exactly)\s+)?" + _TRUTH + r"\b|\bthat'?s\s+(?:a|an)\s+(?:common\s+|popular\s+)?"
                      r"(?:myth|misconception|mistake|error)\b|\bmakes?\s+(?:it|this|that|the\s+"
                      r"(?:statement|claim))\s+(?:" + _FALSE + r"|not\s+" + _TRUTH + r")\b|"
                      r"\b(?:final\s+)?answer\s+(?:is|would\s+be|[:=])\s*(?:no|false|incorrect)\b|"
                      r"\b(?:doesn't|does\s+not|didn't|won't)\s+hold(?:\s+up|\s+water)?\b|"
                      r"\bthere(?:'s|\s+is)\s+no\s+(?:evidence|proof|basis|record)\b|\b(?:unfounded|"
                      r"baseless|unsubstantiated|apocryphal)\b", re.I)
_YES_STMT = re.compile(
    r"\b" + _SUBJ + _COP + _ADV + r"\s+" + _TRUTH + r"\b(?!\s+only)|\bis\s+indeed\b|"
    r"(?<!n't\s)(?<!not\s)\bchecks?\s+out\b|"
    r"\b(?:there\s+(?:is|are|'s)|i\s+(?:see|find))\s+(?:no|nothing)\s+(?:errors?|mistakes?|"
    r"inaccurac(?:y|ies)|problems?|issues?|wrong|incorrect|inaccurate|false)\b|"
    r"\b(?:no|nothing)\s+(?:errors?|mistakes?|inaccurac(?:y|ies)|wrong|incorrect)\s+(?:in|with|"
    r"here|there|about)\b|\b" + _SUBJ + _COP + r"\s+not\s+(?:a\s+)?(?:myth|misconception|"
    r"mistake|wrong|false|incorrect)\b|\bmakes?\s+(?:it|this|that|the\s+(?:statement|claim))\s+"
    + _TRUTH + r"\b|\b(?:final\s+)?answer\s+(?:is|would\s+be|[:=])\s*(?:yes|true|correct)\b|"
    r"\b" + _SUBJ + r"\s+(?:holds(?:\s+up|\s+water)?|stands|is\s+borne\s+out)\b|\b" + _SUBJ + _COP
    + r"\s+(?:commonly\s+|generally\s+|widely\s+)?(?:accepted|considered|regarded)\s+as\s+" + _TRUTH
    + r"\b", re.I)
PART_STMT = re.compile(
    r"\b(?:partly|partially|half|mostly|largely|only\s+partly)\s+(?:true|correct|right|"
    r"accurate)\b|\b(?:the\s+)?(?:first|second|last|other|main)?\s*(?:part|half|year|date|time|"
    r"name|place|location|number|figure|inventor|author|rest|detail|gist)\s+(?:is|are|was)\s+"
    r"(?:right|correct|accurate|true)\b[^.]*\bbut\b", re.I)
REFUSAL = re.compile(
    r"\bi(?:'m|\s+am)?\s+(?:not\s+able|unable)\s+to\s+(?:verify|confirm|answer|help|provide|"
    r"browse|access|give|assist|check|comment|determine|say)|\bi\s+(?:cannot|can't|can\s+not|"
    r"won't)\s+(?:verify|confirm|answer|help|provide|browse|access|give|assist|check|comment|"
    r"determine|say)|\bas\s+an\s+ai\b|\bi\s+(?:don't|do\s+not)\s+have\s+(?:access|information|"
    r"real-time|the\s+ability|enough)|\bi\s+have\s+no\s+(?:information|way|access)|\bi'?m\s+"
    r"sorry|\bi\s+(?:couldn't|could\s+not)\s+find|\bunable\s+to\s+(?:verify|answer|help|confirm)",
    re.I)
HEDGE = re.compile(
    r"\b(?:not\s+sure|unsure|not\s+certain|uncertain|hard\s+to\s+say|difficult\s+to\s+(?:say|"
    r"determine|verify|tell)|(?:it|that|this)\s+depends|depends\s+on\s+(?:the\s+)?(?:definition|"
    r"how|what|whether|which|who|your|one's|context|source|interpretation)|maybe|perhaps|possibly|might\s+be|may\s+be|could\s+be|"
    r"i\s+(?:don't|do\s+not)\s+know|no\s+idea|either\b.*\bor\b)", re.I)
_UNDETERMINED = re.compile(
    r"\bnot\s+necessarily\b|"
    r"\bnie\s+je\s+mo\u017en\u00e9\s+ur\u010di\u0165\b|\bned\u00e1\s+sa\s+ur\u010di\u0165\b|"
    r"\bezin\s+da\s+(?:zehaztu|jakin|esan)\b|\bnav\s+iesp\u0113jams\s+noteikt\b|\bekki\s+h\u00e6gt\s+"
    r"a\u00f0\s+(?:segja|\u00e1kvar\u00f0a|vita)\b|\bni\s+ellir\s+(?:penderfynu|dweud)\b|\bni\s+mogo\u010de\s+"
    r"(?:dolo\u010diti|vedeti|re\u010di)\b|\bm\u00fc\u0259yy\u0259n\s+etm\u0259k\s+m\u00fcmk\u00fcn\s+deyil\b|"
    r"\bnelze\s+ur\u010dit\b|\bnen\u00ed\s+mo\u017en\u00e9\s+ur\u010dit\b|\bnije\s+mogu\u0107e\s+"
    r"(?:odrediti|re\u0107i)\b|\bne\s+mo\u017ee\s+se\s+odrediti\b|\b(?:ei|pole)\s+(?:saa|ole\s+"
    r"v\u00f5imalik)\s+(?:kindlaks\s+teha|\u00f6elda|m\u00e4\u00e4rata)\b|\ben\u0117manoma\s+"
    r"nustatyti\b|\bneį?manoma\s+nustatyti\b|\bkan\s+nie\s+bepaal\b|"
    # "cannot be determined" in other languages ("Nu se poate determina", "nem lehet eldönteni",
    # "no es pot determinar", "kan ikke afgøres", "не можна визначити", "無法確定", "判断できない")
    r"\bnu\s+se\s+poate\s+(?:determina|stabili|spune)\b|\bnem\s+(?:lehet|d\u00f6nthet\u0151)\b|"
    r"\bno\s+es\s+pot\s+(?:determinar|saber|dir)\b|\bno\s+se\s+puede\s+(?:determinar|saber|decir)\b|"
    r"\bimpossible\s+de\s+(?:d\u00e9terminer|savoir|dire)\b|\bnicht\s+(?:feststellbar|bestimmbar|"
    r"entscheidbar|zu\s+(?:bestimmen|entscheiden|sagen))\b|\bnon\s+(?:si\s+pu\u00f2|\u00e8\s+possibile)\s+"
    r"(?:determinare|stabilire|dire)\b|\bn\u00e3o\s+(?:se\s+pode|\u00e9\s+poss\u00edvel)\s+(?:determinar|"
    r"saber|dizer)\b|\b(?:kan|kann)\s+ikke\s+(?:afg\u00f8res|avgj\u00f8res|bestemmes|vides|sies)\b|"
    r"\bei\s+voi\s+(?:p\u00e4\u00e4tell\u00e4|tiet\u00e4\u00e4|sanoa)\b|\btidak\s+(?:dapat|bisa)\s+"
    r"(?:ditentukan|dipastikan)\b|\bonbepaald\b|\bniet\s+te\s+(?:bepalen|zeggen)\b|"
    r"\u043d\u0435\s+(?:\u043c\u043e\u0436\u043d\u0430|\u043c\u043e\u0436\u043d\u043e|"
    r"\u0432\u043e\u0437\u043c\u043e\u0436\u043d\u043e)\s+(?:\u0432\u0438\u0437\u043d\u0430\u0447"
    r"|\u043e\u043f\u0440\u0435\u0434\u0435\u043b|\u0441\u043a\u0430\u0437\u0430\u0442)|"
    # Russian / Ukrainian in either order: "невозможно/нельзя определить", "определить (это)
    # невозможно/нельзя", "сказать нельзя", "неизвестно", "нет (данных|информации)"
    r"(?:\u043d\u0435\u0432\u043e\u0437\u043c\u043e\u0436\u043d\u043e|\u043d\u0435\u043b\u044c"
    r"\u0437\u044f|\u043d\u0435\u043c\u043e\u0436\u043b\u0438\u0432\u043e)\s+(?:\w+\s+)?"
    r"(?:\u043e\u043f\u0440\u0435\u0434\u0435\u043b|\u0441\u043a\u0430\u0437\u0430\u0442|"
    r"\u0443\u0441\u0442\u0430\u043d\u043e\u0432|\u0443\u0437\u043d\u0430\u0442|\u0432\u0438\u0437"
    r"\u043d\u0430\u0447)|(?:\u043e\u043f\u0440\u0435\u0434\u0435\u043b\u0438\u0442\u044c|\u0441"
    r"\u043a\u0430\u0437\u0430\u0442\u044c|\u0443\u0441\u0442\u0430\u043d\u043e\u0432\u0438\u0442"
    r"\u044c|\u0443\u0437\u043d\u0430\u0442\u044c|\u0432\u0438\u0437\u043d\u0430\u0447\u0438\u0442"
    r"\u0438)\s+(?:\w+\s+){0,2}(?:\u043d\u0435\u0432\u043e\u0437\u043c\u043e\u0436\u043d\u043e|"
    r"\u043d\u0435\u043b\u044c\u0437\u044f|\u043d\u0435\u043c\u043e\u0436\u043b\u0438\u0432\u043e)|"
    r"\u043d\u0435\u0438\u0437\u0432\u0435\u0441\u0442\u043d\u043e|\u043d\u0435\u0442\s+(?:"
    r"\u0434\u0430\u043d\u043d\u044b\u0445|\u0438\u043d\u0444\u043e\u0440\u043c\u0430\u0446\u0438"
    r"\u0438|\u0441\u0432\u0435\u0434\u0435\u043d\u0438\u0439)|\u0438\u043d\u0444\u043e\u0440\u043c"
    r"\u0430\u0446\u0438\u0438\s+(?:\w+\s+){0,4}?\u043d\u0435\u0442\b|"
    # Hindi "cannot be determined / said", "not known" ("निर्धारित नहीं किया जा सकता", "कहा नहीं जा सकता", "पता नहीं")
    r"\u0928\u093f\u0930\u094d\u0927\u093e\u0930\u093f\u0924\s+\u0928\u0939\u0940\u0902|\u0915"
    r"\u0939\u093e\s+\u0928\u0939\u0940\u0902\s+\u091c\u093e|\u092a\u0924\u093e\s+\u0928\u0939"
    r"\u0940\u0902|\u0924\u092f\s+\u0928\u0939\u0940\u0902|"
    r"\u65e0\u6cd5(?:\u786e\u5b9a|\u5224\u65ad)|\u7121\u6cd5(?:\u78ba\u5b9a|\u5224\u65b7)|"
    r"\u5224\u65ad\u3067\u304d(?:\u306a\u3044|\u307e\u305b\u3093)|\u5224\u5225\u4e0d\u80fd|"
    r"\uc54c\s*\uc218\s*\uc5c6|"
    r"\b(?:cannot|can't|can\s+not|unable\s+to|impossible\s+to|not\s+possible\s+to|no\s+way\s+"
    r"(?:to|of))\s+(?:be\s+)?(?:determine[sd]?|tell|told|say|know|known|knowing|decide[sd]?|"
    r"verify|verified|conclude[sd]?|confirm(?:ed)?|be\s+answered)\b|"  # "I can't answer that" refuses
    # "It might be electric, it might not." (the facts leave it open; "maybe, maybe not" is the
    # writer's own hedge)
    r"\b(?:might|may|could)\s+(?:be\b|have\b|\w+)[^.;]{0,40}?\b(?:might|may|could)\s+not\b|"
    r"\b(?:not|isn't|is\s+not|no|insufficient|lack\s+of|not\s+sufficient|without\s+(?:enough|"
    r"sufficient))\s+(?:enough\s+|sufficient\s+)?(?:information|info|evidence|context|details|"
    r"data)\b|\bundetermin\w*|\bindetermin\w*|\bunknown\b|\bunclear\b|\buncertain\b|\bunable\s+to\s+"
    r"determine\b|\b(?:is|are|was)\s+not\s+(?:mentioned|stated|specified|given|provided|known|"
    r"said)\b|\b(?:does\s+not|doesn't|do\s+not|don't|did\s+not|didn't)\s+(?:say|mention|state|"
    r"specify|tell|provide|indicate|contain|include|give)\b|\bcan'?t\s+(?:tell|say)\b|"
    r"\bno\s+(?:mention|indication)\b|\bnot\s+determinable\b|\bnothing\s+in\s+the\s+(?:passage|text|"
    r"description|context|statement)\b|\b(?:we|you|one)\s+(?:don't|do\s+not|can't|"
    r"cannot|can\s+not)\s+(?:know|tell|say)\b|\b(?:is|are|was|were)\s+never\s+"
    r"(?:mentioned|stated|specified|given|said|indicated|explained)\b|\bnever\s+(?:says|states|"
    r"mentions|tells\s+us)\b", re.I)
_CONTRAST = re.compile(r"\b(?:but|however|though|although|except|apart\s+from|other\s+than|"
                       r"that\s+said|yet|one\s+(?:small\s+|minor\s+)?(?:detail|correction|"
                       r"error|issue|caveat|thing))\b", re.I)
_ERROR = re.compile(
    r"\b(?:wrong|incorrect|inaccurate|inaccurac(?:y|ies)|errors?|mistakes?|mistaken|mistakenly|"
    r"misconception|myth|false|untrue|off|actually|rather\s+than|instead\s+of|exaggerat\w*|"
    r"fabricat\w*|corrections?|corrected|misleading|(?:(?:was|is|were|are)\s+not|wasn't|isn't|"
    r"weren't|aren't)\s+(?:in|at|on|by|from|during|until|since|the|a|an|\d|actually|really|"
    r"true|correct|right|accurate)|(?:did|does)\s+not|didn't|doesn't|never|not\s+(?:quite\s+)?(?:right|correct|accurate|true))\b|,\s*not\s+(?:in|at|on|"
    r"by|from|the|a|an|\d)|\bnot\s+\d", re.I)
_NEGATED_ERROR = re.compile(r"(?:\b(?:no|not|nothing|never|without|isn't|aren't|wasn't|hardly)"
                            r"|n't)\s+(?:\w+\s+)?$", re.I)
_ATTRIBUTED = re.compile(r"\b(?:people|many|some|others|often|commonly|sometimes|popularly|"
                         r"frequently|widely|usually)\s+(?:\w+\s+)?$", re.I)
_EXCEPT_PART = re.compile(r"\bexcept\s+(?:that\s+)?(?:it'?s|it\s+is|it\s+was)\s+\d|"
                          r"\bexcept\s+(?:that\s+|for\s+)?(?:the|its|his|her|their|one)\s+"
                          r"(?:year|date|name|number|place|location|city|country|time|figure|"
                          r"amount|detail|part|fact|birth)|\bexcept\s+(?:that\s+)?(?:it|he|she|"
                          r"they)\s+(?:was|is|were|are|did|does|had|has)\b", re.I)
# "I could be wrong", "if I'm not mistaken": doubt about oneself, not an error in the claim
_SELF_DOUBT = re.compile(r"\b(?:I|I'm|I\s+am|I've|I\s+may|I\s+might|I\s+could)\s+(?:(?:could|might|"
                         r"may|be|been|have\s+been)\s+){0,2}$|\b(?:if|unless)\s+I'?m\s+(?:not\s+)?$|"
                         r"\bcorrect\s+me\s+if\s+I'?m\s+$", re.I)
_STRONG_ERRORS = ("wrong", "incorrect", "inaccurate", "mistake", "mistaken", "misconception",
                  "myth", "false", "untrue", "error", "misleading")


def clean_clause(clause: str) -> str:
    """The clause without markup, leading fillers and labels ("Verdict:", "Well,", "So")."""
    text = re.sub(r"[*_#>`\"]", "", clause).strip()
    return _FILLER.sub("", text).strip()


# A tick or a cross as the verdict ("✅", "Verdict: ❌", "👍")
_MARK = re.compile(r"^[\s*_#>`\"]*(?:\w+\s*:\s*)?(?:(?P<yes>\u2705|\u2714|\u2713|\u2611|\U0001f44d)|"
                   r"(?P<no>\u274c|\u2717|\u2718|\u274e|\U0001f44e|\U0001f6ab))")


# "I can't say 'No' to this one", "I wouldn't say no": the verdict word the reply declines to
# say gives the other verdict ("I can't say yes or no" declines both: a refusal).
# A declined yes said with certainty words is doubt, not a no ("I can't say yes for sure");
# "I don't say no often" is a habit, not a verdict, so only can't/won't/wouldn't decline.
_NOT_SAYING = re.compile(r"^(?:i|we)\s+(?:can't|cannot|can\s+not|couldn't|could\s+not|wouldn't|would\s+not|won't|"
                         r"will\s+not)\s+(?:really\s+|honestly\s+)?(?:say|answer|reply|respond)\s+"
                         r"(?:with\s+)?['\"]?(?P<w>yes|no|true|false)\b['\"]?(?!\s*(?:or|/|and)\b)"
                         r"(?P<doubt>\s+(?:for\s+(?:sure|certain)|with\s+(?:any\s+)?(?:certainty|confidence)|"
                         r"definitely|definitively|confidently|categorically))?", re.I)


def opener(clause: str) -> Polarity | None:
    mark = _MARK.match(clause)
    if mark is not None:
        return "yes" if mark.group("yes") else "no"
    text = clean_clause(clause)
    if not text:
        return None
    declined = _NOT_SAYING.match(text)
    if declined is not None:
        if declined.group("w").lower() in ("yes", "true"):
            return "hedge" if declined.group("doubt") else "no"
        return "yes"
    if _BOTH.match(text):
        return "hedge"
    if _PARTIAL.match(text):
        return "partial"
    if _NO.match(text):
        return "no"
    if _HEDGE.match(text):
        return "hedge"
    if _YES.match(text):
        return "yes"
    if REFUSAL.match(text):
        return "refusal"
    return None


# "True that she won, but …", "Granted, it's old, but …": a concession; what follows the
# "but" decides, and with no verdict there the claim is only partly right.
_CONCEDES = re.compile(r"^(?:(?:it'?s|it\s+is|that'?s|that\s+is)\s+)?(?:true|right|correct)\s+"
                       r"that\b|^(?:granted|admittedly)\b", re.I)


def conceded(text: str) -> str | None:
    """When ``text`` opens with a concession that a "but" / "however" in the same sentence
    turns ("True that she won, but the prize was in Physics"): what follows the turn; else
    None."""
    if not _CONCEDES.match(clean_clause(text)):
        return None
    sentence = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    turn = re.search(r"\b(?:but|however)\b[\s,]*", sentence, re.I)
    return None if turn is None else text[turn.end():]


def statement(clause: str) -> Polarity | None:
    text = re.sub(r"[*_`\"]", "", clause)
    if PART_STMT.search(text):
        return "partial"
    if _NO_STMT.search(text):
        return "no"
    if _YES_STMT.search(text):
        return "yes"
    return None


# Whether the statement has an error ("there's nothing wrong with it", "it contains a
# mistake"): a yes or no that opens such a sentence answers that, not the claim.
_NO_ERROR = re.compile(r"^\W*(?:there(?:'s|\s+is|\s+are)|i\s+(?:see|find))\s+(?:no|nothing)\s+(?:\w+\s+)?"
                       r"(?:errors?|mistakes?|inaccurac\w*|problems?|issues?|wrong|incorrect|inaccurate|"
                       r"false)\b|^\W*nothing\s+(?:is\s+)?wrong\b|^\W*(?:it|the\s+statement|the\s+claim|"
                       r"this)\s+(?:contains?|has|includes?)\s+no\s+(?:\w+\s+)?(?:errors?|mistakes?)\b",
                       re.I)
_HAS_ERROR = re.compile(r"^\W*(?:(?:it|the\s+statement|the\s+claim|this|that)\s+(?:contains?|has|"
                        r"includes?|makes?)|there(?:'s|\s+is|\s+are))\s+(?:an?|one|some|a\s+few)\s+"
                        r"(?:\w+\s+)?(?:errors?|mistakes?|inaccurac\w*)\b", re.I)


_CONDITION = re.compile(r"^\s*,?\s*(?:only\s+)?(?:if|unless|provided|as\s+long\s+as|assuming|depending)\b",
                        re.I)  # after a comma ("Yes, if …"); "True — if it were …, …" argues


def conditional(rest: str) -> bool:
    """Is a yes or no qualified by a condition right after it ("Yes, if you only count hot
    deserts; …")? Then it is a partial answer, as "only if …" is."""
    return bool(_CONDITION.match(rest))


def error_framed(rest: str) -> Polarity | None:
    """Right after an opening yes / no: does the sentence go on to say whether the statement
    has an error ("No, there's nothing wrong with this statement" accepts; "Yes, the statement
    contains a mistake" rejects)?"""
    if _NO_ERROR.search(rest):
        return "yes"
    if _HAS_ERROR.search(rest):
        return "no"
    return None


def _real_errors(text: str) -> list[re.Match[str]]:
    out = []
    for m in _ERROR.finditer(text):
        head = text[max(0, m.start() - 30):m.start()]
        if _NEGATED_ERROR.search(head) or _ATTRIBUTED.search(head) or _SELF_DOUBT.search(head):
            continue
        if m.group(0).lower() == "off" and not re.search(r"\b(?:is|are|was|seems|slightly|bit|"
                                                         r"detail)\s+$", head, re.I):
            continue
        out.append(m)
    return out


def correction(text: str) -> bool:
    """Does text that follows a yes take it back (a contrast followed by an error, "except
    the year")?"""
    if _EXCEPT_PART.search(text):
        return True
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
        contrast = _CONTRAST.search(sentence)
        if contrast is not None and _real_errors(sentence[contrast.start():]):
            return True
    return False


def error_stated(text: str) -> bool:
    """An error flagged anywhere, not negated and not said of other people."""
    return any(m.group(0).lower() in _STRONG_ERRORS for m in _real_errors(text))


def undetermined(text: str) -> bool:
    return bool(_UNDETERMINED.search(text))


def opens_undetermined(clause: str) -> bool:
    """The clause opens by saying the answer cannot be determined, in a language whose phrase
    starts with its negation ("Nie je možné určiť", "Nu se poate determina"): no "no"."""
    m = _UNDETERMINED.search(clean_clause(clause))
    return m is not None and m.start() == 0
