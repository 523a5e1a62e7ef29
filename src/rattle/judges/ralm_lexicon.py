"""Phrase lexicons of the RALM detectors' broad mode (``judges.ralm``): abstentions ("the
documents do not say", "not mentioned", some twenty other languages), conflicts ("the documents
disagree", "Document 1 says X, while Document 3 says Y") and the negation test both modes use
("There is no conflicting information", "it is not unanswerable").
"""

from __future__ import annotations

import re

from rattle.judges.reply import NOT_NEGATING

_NEG = (r"(?:\b(?:not|no|never|without|nothing|none|neither|nor|isn't|aren't|wasn't|non|hardly|rather\s+than|"
        r"instead\s+of)\b|n't)"
        r"[\s\"'`*(\u201c\u2018-]*(?:(?:[^\W\d]\w*|any)[\s\"'`*-]+){0,2}$")  # not across a value:
# "1912, not 1913 as one document wrongly states" negates 1913, not the document
# Broad mode: other ways of saying the answer is not in the documents.
ABSTAIN = re.compile(
    r"\b(?:cannot|can't|can\s+not|could\s+not|couldn't|unable\s+to|impossible\s+to)\s+(?:be\s+)?"
    r"(?:answer(?:ed)?|find|found|determine[d]?|locate[d]?|identif(?:y|ied)|tell|say|know|"
    # "cannot provide an answer" (not "can't provide opinions on …", a refusal of the topic)
    r"infer(?:red)?|(?:provide|give|offer)\s+(?:you\s+with\s+|you\s+)?(?:(?:an?|the|that|this|any)\s+)?"
    r"(?:[\w-]+\s+)?(?:answer|information|info|name|date|year|figure|"
    r"number|details?)|provide\s+(?:that|this|it)\b)\b|"
    # Round 7: "none of them compares …", "none of the provided documents covers …" (any verb but
    # one of agreement), "I see nothing about …", "I don't have an answer from these sources"
    r"\bnone\s+of\s+(?:them|these|those|the\s+(?:\w+\s+)?(?:documents?|passages?|texts?|sources?|articles?|"
    r"excerpts?|snippets?|results?))\s+(?:\w+ly\s+)?(?!(?:dis)?agrees?\b|conflicts?\b|contradicts?\b|"
    r"differs?\b|match(?:es)?\b|is\b|are\b|was\b|were\b|has\b|have\b|seems?\b|appears?\b)[a-z]+(?:s|es)\b|"
    r"\b(?:see|find|found|saw|there(?:'s|\s+is))\s+nothing\s+(?:at\s+all\s+)?(?:about|on|regarding|of|"
    r"related\s+to|concerning)\b|[\u2014\u2013:;,]\s*nothing\s+(?:at\s+all\s+)?(?:about|on|regarding)\b|"
    r"\b(?:don't|do\s+not|doesn't|does\s+not)\s+have\s+(?:an?|any|the)\s+(?:[\w-]+\s+)?(?:answer|information)\b|"
    # "I don't know" in other languages
    r"\bnon\s+lo\s+so\b|\bno\s+lo\s+s[\u00e9e]\b|\bn[\u00e3a]o\s+sei\b|\bnie\s+wiem\b|\bbilmiyorum\b|"
    r"\bweet\s+(?:het\s+)?niet\b|\bvet\s+inte\b|\bved\s+det\s+ikke\b|\bkh\u00f4ng\s+bi\u1ebft\b|"
    r"\btidak\s+tahu\b|\b\u043d\u0435\s+\u0437\u043d\u0430\u044e\b|\uBAA8\uB974\uACA0|"
    r"\b(?:do|does|did)\s+not\s+(?:\w+ly\s+)?(?:mention|say|state|specify|provide|contain|include|give|"
    r"list|name|indicate|discuss|cover|have(?!\s+to\b)|answer)\b|\b(?:don't|doesn't|didn't)\s+(?:\w+ly\s+)?(?:mention|"
    r"say|state|specify|provide|contain|include|give|list|name|indicate|discuss|cover|have(?!\s+to\b)|answer)\b|"
    r"\b(?:is|are|was|were|isn't|aren't|wasn't|weren't)\s+(?:not\s+)?(?:mentioned|stated|given|"
    r"provided|specified|found|available|included|listed|named|present|contained|discussed|"
    r"addressed)\b|\bnot\s+(?:mentioned|stated|given|provided|specified|found|available|"
    r"answerable)\b|\bnot\s+(?:in|found\s+in)\s+the\s+(?:documents?|passages?|text|context)\b|"
    r"\bno\s+(?:answer|information|info|mention|relevant\s+(?:information|documents?)|data|"
    r"details?|evidence)\b|\b(?:not\s+enough|insufficient|not\s+sufficient|lack\s+of|(?:isn't|is\s+not|"
    r"aren't|are\s+not|wasn't)\s+(?:enough|sufficient))\s+"
    r"(?:information|context|data|evidence|details)\b|\bnone\s+of\s+the\s+(?:documents?|"
    r"passages?|texts?|sources?|articles?)\s+(?:mention|say|state|contain|provide|name|specify|"
    r"include|discuss|answer|give|address|cover|tell)|\b(?:says?|states?|mentions?|gives?)\s+"
    r"nothing\s+(?:about|on|regarding|of)\b|\b(?:don't|do\s+not|can't|cannot|couldn't|could\s+not)\s+"
    r"(?:see|find|spot|locate)\b[^.]{0,60}\b(?:documents?|passages?|context|texts?|sources?)\b|\bi\s+(?:do\s+not|don't)\s+know\b|\bi\s+(?:do\s+not|don't)\s+"
    r"have\s+enough\b|\b(?:i'?m|i\s+am)\s+not\s+(?:sure|certain)\b|\bunclear\b|\b(?:mentions?|discuss(?:es)?|"
    r"describes?|covers?|talks?\s+about|(?:are|is)\s+(?:all\s+|only\s+)?about|focus(?:es)?\s+on|"
    r"deals?\s+with)\b[^.]{0,80}(?:\bbut|,)\s+(?:not|nothing\s+(?:about|on)|"
    r"no)\b(?!\s*(?:a\s+)?(?:real\s+|genuine\s+|true\s+|actual\s+)?(?:conflict|contradiction|"
    r"discrepancy|disagreement))|\b(?:have\s+)?no\s+(?:idea|clue)\b|\b(?:isn't|aren't|is\s+not|are\s+not|"
    r"not)\s+(?:entirely\s+|very\s+|really\s+|quite\s+)?clear\b|\bno\s+(?:documents?|passages?|"
    r"sources?|texts?)\s+(?:mentions?|names?|says?|states?|gives?|contains?|provides?|answers?|"
    r"specif(?:y|ies)|includes?|discuss(?:es)?)\b|^\W*(?:unknown|n/a|(?-i:NA|N\.\s?A\.?|n\.\s?a\.)|"
    r"none|no\s+idea|not\s+sure|unsure)\W*$|\bnot\s+answerable\b|\bunbeantwortbar\b|\bno\s+se\s+puede\s+"
    r"responder\b|\bsin\s+respuesta\b|\bje\s+ne\s+sais\s+pas\b|\bich\s+wei\u00df\s+(?:es\s+)?nicht"
    r"\b|\u65e0\u6cd5\u56de\u7b54|\u7121\u6cd5\u56de\u7b54|\u4e0d\u77e5\u9053|\u65e0\u6cd5\u786e"
    r"\u5b9a|\u7b54\u3048\u3089\u308c\u307e\u305b\u3093|\u7b54\u3048\u3089\u308c\u306a\u3044|"
    # Japanese "回答不能" / "回答できません", "分かりません"; Chinese "无法作答", "不可回答"
    r"(?:\u56de\u7b54|\u89e3\u7b54|\u8fd4\u7b54)(?:\u4e0d\u80fd|\u4e0d\u53ef|\u3067\u304d\u307e\u305b\u3093|"
    r"\u3067\u304d\u306a\u3044)|\u5206\u304b\u308a\u307e\u305b\u3093|\u5206\u304b\u3089\u306a\u3044|"
    r"\u308f\u304b\u3089\u306a\u3044|\u65e0\u6cd5\u4f5c\u7b54|\u4e0d\u53ef\u56de\u7b54|(?:\u65e0\u6cd5|\u4e0d\u80fd)[^\u3002\uff0c,.]{0,8}"
    r"(?:\u56de\u7b54|\u786e\u5b9a|\u5f97\u77e5)|" + r"|".join((
        # French, German, Spanish, Portuguese, Italian, Russian, Chinese, Japanese
        r"\bimpossible\s+de\s+r[\u00e9e]pondre\b|\bne\s+(?:le\s+|la\s+|les\s+|l')?(?:mentionnent|"
        r"mentionne|pr[\u00e9e]cisent|pr[\u00e9e]cise|disent|dit|indiquent|indique)\s+pas\b|"
        r"\baucune\s+(?:information|mention|r[\u00e9e]ponse|id[\u00e9e]e)\b|\bpas\s+(?:mentionn[\u00e9e]e?|"
        r"d'information|assez\s+d'informations?)\b|\bn'en\s+(?:parlent|parle|disent|dit|"
        r"mentionnent|mentionne)\s+pas\b|\bne\s+(?:parlent|parle|donnent|donne|contiennent|contient|"
        r"fournissent|fournit)\s+pas\b",
        r"\bnicht\s+(?:beantwortbar|zu\s+beantworten|erw[\u00e4a]hnt|angegeben|genannt)\b|"
        r"\bkeine\s+(?:angabe|angaben|informationen?|antwort|ahnung)\b",
        r"\u043e\u0442\u0432\u0435\u0442\u0438\u0442\u044c\s+\u043d\u0435\u0432\u043e\u0437\u043c\u043e\u0436"
        r"\u043d\u043e|\u043d\u0435\s?\u0438\u0437\u0432\u0435\u0441\u0442\u043d\u043e|\u043d\u0435\u043b\u044c"
        r"\u0437\u044f\s+(?:\u043e\u0442\u0432\u0435\u0442\u0438\u0442\u044c|\u043e\u043f\u0440\u0435\u0434"
        r"\u0435\u043b\u0438\u0442\u044c)",
        # Czech, Greek, Swahili, Hungarian, Romanian, Finnish, Danish/Norwegian, Ukrainian,
        # Hebrew, Persian, Thai, Tagalog, Malay
        r"\bnelze\s+(?:odpov\u011bd\u011bt|ur\u010dit)\b|\bnen\u00ed\s+(?:uvedeno|zm\u00edn\u011bno)\b|"
        r"\u03b4\u03b5\u03bd\s+\u03b1\u03bd\u03b1\u03c6\u03ad\u03c1\u03b5\u03c4\u03b1\u03b9|\u03b4\u03b5"
        r"\u03bd\s+\u03c5\u03c0\u03ac\u03c1\u03c7\u03bf\u03c5\u03bd\s+\u03c0\u03bb\u03b7\u03c1\u03bf"
        r"\u03c6\u03bf\u03c1\u03af\u03b5\u03c2|\bhakuna\s+(?:taarifa|habari|jibu)\b|\bhaijatajwa\b|"
        r"\bnincs\s+(?:inform\u00e1ci\u00f3|adat)\b|\bnem\s+lehet\s+megv\u00e1laszolni\b|"
        r"\bnu\s+(?:se\s+men\u021bioneaz\u0103|exist\u0103\s+informa\u021bii)\b|\bei\s+(?:mainita|tietoa)\b|"
        r"\bikke\s+(?:nevnt|n\u00e6vnt)\b|\bingen\s+(?:informasjon|oplysninger)\b|"
        r"\u043d\u0435\u043c\u0430\u0454\s+\u0456\u043d\u0444\u043e\u0440\u043c\u0430\u0446\u0456\u0457|"
        r"\u05dc\u05d0\s+\u05de\u05d5\u05d6\u05db\u05e8|\u05d0\u05d9\u05df\s+\u05de\u05d9\u05d3\u05e2|"
        r"\u0627\u0637\u0644\u0627\u0639\u0627\u062a\u06cc\s+\u0648\u062c\u0648\u062f\s+\u0646\u062f"
        r"\u0627\u0631\u062f|\u0e44\u0e21\u0e48\u0e21\u0e35\u0e02\u0e49\u0e2d\u0e21\u0e39\u0e25|"
        r"\bwalang\s+impormasyon\b|\bhindi\s+nabanggit\b|\btiada\s+maklumat\b",
        r"\bno\s+se\s+(?:menciona|especifica|indica|dice|encuentra|halla|puede\s+(?:responder|"
        r"determinar))\b|"
        r"\bno\s+(?:hay|tengo)\s+(?:suficiente\s+)?informaci[\u00f3o]n\b|\bimposible\s+(?:de\s+)?"
        r"responder\b|\bno\s+(?:lo\s+)?(?:mencionan|dicen|indican|especifican)\b",
        r"\bn[\u00e3a]o\s+(?:[\u00e9e]\s+)?(?:mencionad[oa]|poss[\u00edi]vel\s+responder|h[\u00e1a]\s+"
        r"informa[\u00e7c][\u00e3a]o)\b|\bn[\u00e3a]o\s+(?:mencionam|dizem|informam)\b|\bsem\s+resposta\b",
        r"\bnon\s+(?:[\u00e8e]\s+)?(?:menzionat[oa]|possibile\s+rispondere|ci\s+sono\s+informazioni)\b|"
        r"\bnon\s+(?:lo\s+)?(?:menzionano|dicono|indicano)\b|\bsenza\s+risposta\b",
        r"\u043d\u0435\u0432\u043e\u0437\u043c\u043e\u0436\u043d\u043e\s+\u043e\u0442\u0432\u0435"
        r"\u0442\u0438\u0442\u044c|\u043d\u0435\s+\u0443\u043f\u043e\u043c\u0438\u043d\u0430\u0435"
        r"\u0442\u0441\u044f|\u043d\u0435\u0442\s+\u0438\u043d\u0444\u043e\u0440\u043c\u0430\u0446"
        r"\u0438\u0438",
        r"\u6ca1\u6709\u63d0\u5230|\u672a\u63d0\u53ca|\u6ca1\u6709\u63d0\u53ca|\u6ca1\u6709\u76f8"
        r"\u5173\u4fe1\u606f|\u672a\u8bf4\u660e|\u8a18\u8f09\u3055\u308c\u3066\u3044\u307e\u305b"
        r"\u3093|\u308f\u304b\u308a\u307e\u305b\u3093|\u60c5\u5831\u304c\u3042\u308a\u307e\u305b\u3093|"
        r"\u4e0d\u660e|\u672a\u77e5",
        # Dutch, Swedish, Polish, Turkish, Indonesian, Vietnamese, Korean, Arabic, Hindi
        r"\bstaat\s+niet\s+in\b|\bniet\s+(?:vermeld|genoemd|te\s+beantwoorden)\b|\bgeen\s+informatie\b|"
        r"\bonbeantwoordbaar\b|\bframg\u00e5r\s+inte\b|\bingen\s+information\b|\bbrak\s+informacji\b|"
        r"\bnie\s+(?:wiadomo|mo\u017cna\s+odpowiedzie\u0107)\b|\bbilgi\s+(?:yok|bulunmamaktad\u0131r)\b|"
        r"\bbelirtilmemi\u015f\b|\bcevaplanamaz\b|\b(?:cevap|yan\u0131t)\s+verilemez\b|\byan\u0131tlanamaz\b|\btidak\s+(?:disebutkan|ada\s+informasi|dapat\s+"
        r"dijawab)\b|\bkh\u00f4ng\s+(?:c\u00f3\s+th\u00f4ng\s+tin|th\u1ec3\s+tr\u1ea3\s+l\u1eddi)\b",
        r"\uc815\ubcf4\uac00\s*\uc5c6|\uc54c\s*\uc218\s*\uc5c6|"
        # Korean "답(변/대답/응답)할 수 없": cannot answer (also "확인/판단할 수 없", cannot tell)
        r"(?:\ub2f5\ubcc0|\ub300\ub2f5|\uc751\ub2f5|\ub2f5|\ud655\uc778|\ud310\ub2e8)\s*\ud560\s*\uc218\s*\uc5c6|"
        r"\uc5b8\uae09\ub418\uc9c0\s*\uc54a|\u0644\u0627\s+\u062a\u0648\u062c\u062f\s+\u0645\u0639\u0644"
        r"\u0648\u0645\u0627\u062a|\u0644\u0627\s+\u064a\u0645\u0643\u0646\s+\u0627\u0644\u0625\u062c\u0627"
        r"\u0628\u0629|\u091c\u093e\u0928\u0915\u093e\u0930\u0940\s+\u0928\u0939\u0940\u0902",
        r"\bsin\s+(?:informaci[\u00f3o]n|datos)\b|\bno\s+(?:aparece|figura|consta)\b|"
        # Hindi: the documents / the information … "नहीं" within the clause (its vowel signs split
        # words, so the word-counting last resort does not reach it)
        r"(?:\u0926\u0938\u094d\u0924\u093e\u0935\u0947\u091c|\u091c\u093e\u0928\u0915\u093e\u0930\u0940|"
        r"\u0938\u094d\u0930\u094b\u0924|\u092a\u093e\u0920)[^\u0964.!?\n]{0,80}?\u0928\u0939\u0940\u0902|"
        # "not to be found": "Information introuvable", "nicht gefunden", "未找到", "見つかりません"
        r"\bintrouvables?\b|\bunauffindbar\b|\b(?:nicht|niet|non|pas|no|n[\u00e3a]o)\s+(?:gefunden|gevonden|"
        r"trouv[\u00e9e]e?s?|trovat[aoie]|encontrad[oa]s?)\b|\bno\s+se\s+(?:encontr[\u00f3o]|hall[\u00f3o])\b|"
        r"\bnie\s+znaleziono\b|\u043d\u0435\s+\u043d\u0430\u0439\u0434\u0435\u043d|\bbulunamad\u0131\b|"
        r"\btidak\s+ditemukan\b|\bkh\u00f4ng\s+t\u00ecm\s+th\u1ea5y\b|\u672a\u627e\u5230|\u627e\u4e0d\u5230|"
        r"\u898b\u3064\u304b\u308a\u307e\u305b\u3093|\u898b\u3064\u304b\u3089\u306a\u3044|\ucc3e\uc744\s*\uc218\s*\uc5c6|"
        # English: "the documents are silent on this", "nothing in the passages says"
        r"\b(?:documents?|passages?|context|sources?|texts?)\s+(?:is|are)\s+silent\b|\bnothing\s+in\s+the\s+"
        r"(?:documents?|passages?|context|sources?|texts?)\b|\b(?:documents?|passages?|context|sources?)\s+"
        r"lacks?\b|"
        # "…, none names its author"
        r"\bnone\s+(?:of\s+them\s+)?(?:names?|mentions?|says?|states?|gives?|identif(?:y|ies)|answers?)\b|"
        # "The documents only discuss land animals."
        r"\b(?:documents?|passages?|context|sources?|texts?|they)\s+(?:\w+\s+)?(?:only|just|merely)\s+(?:discuss|"
        r"mention|cover|describe|talk\s+about|deal\s+with|concern|are\s+about)")), re.I | re.M)
# Broad mode's last resort, in any of the common languages: one clause that negates and speaks
# of the documents or the information ("La información no está en los documentos", "Das steht
# nicht in den Dokumenten", "文档中没有相关信息") — unless it is about a conflict or agreement.
_NEG_WORD = (r"(?:\b(?:not|no|never|nothing|none|neither|without|nicht|nichts|kein\w*|pas|rien|aucun\w*|nada|"
             r"niets|nergens|nulla|niente|nic|\u043d\u0438\u0447\u0435\u0433\u043e|"
             r"ning[u\u00fa]n\w*|n[\u00e3a]o|nenhum\w*|non|nessun\w*|niet|geen|inte|ikke|nie|brak|nu|nem|"
             r"nincs|ei|ej|nej|inga|ingen|inget|nije|nisu|ekki|nid|nav|tidak|tiada|bukan|kh\u00f4ng|de\u011fil|yok|hindi|"
             r"walang|hakuna|haku\w*|\u0436\u043e\u049b|ez\s+(?:dute|du|da|dago|dira|dio)|ne\s?(?:uv\u00e1d|zmi\u0148|spom|omenj|obsahuj|sadr\u017e|hovor|navod|"
             r"govor)\w*)\b|"
             r"n't\b|"
             r"\b\u043d\u0435\b|\b\u043d\u0435\u0442\b|\u6ca1|\u4e0d|\u7121|\u65e0|\u672a|\u306a\u3044|\uc5c6|"
             # Round 7: Japanese "ません", Korean "않" / "못" / "아니", Hindi "नहीं" / "न",
             # Arabic "لا", "ليس", "لم", "لن", "غير"; Turkish negative verb forms ("yer
             # almıyor", "içermiyor", "verilemez", "belirtilmemiş", "bulunmamaktadır")
             r"\u307e\u305b\u3093|\uc54a|\ubabb|\uc544\ub2c8|\u0928\u0939\u0940\u0902|(?<!\S)\u0928(?!\S)|"
             r"(?<!\S)(?:\u0644\u0627|\u0644\u064a\u0633\w*|\u0644\u0645|\u0644\u0646|\u063a\u064a\u0631)(?!\S)|"
             r"\b\w+m[\u0131iu\u00fc]yor\w*|\b\w+(?:ma|me)(?:makta|mekte|m[\u0131i]\u015f)\w*|\b\w+(?:ama|eme|[\u0131iu\u00fc]lmaz|"
             r"[\u0131iu\u00fc]lmez)z?\b)")
_DOC_NOUN = (r"(?:\b(?:documents?|passages?|context|sources?|texts?|information|dokument\w*|quellen|"
             r"kontext|informationen|documentos?|fuentes|textos?|contexto|informaci[\u00f3o]n|contexte|"
             r"informations?|documenti|fonti|contesto|informazion\w*|fontes|informa[\u00e7c][\u00e3a]o|"
             r"documenten|informatie|dokumenty|informacji|documen\w*|dokumen\w*|skj\u00f6l\w*|dogfen\w*|\u049b\u04b1\u0436\u0430\u0442\w*|forr\u00e1s\w*|"
             r"informa\u021bi\w*|inform\u00e1ci\u00f3\w*|informaci\u00f3|tietoa|l\u00e4hte\w*|asiakirj\w*|"
             r"t\u00e0i\s+li\u1ec7u|th\u00f4ng\s+tin|belge\w*|bilgi\w*|bronnen|informacj\w*|\u017ar\u00f3d\u0142\w*|"
             r"kayna\u011f\w*|metin\w*)\b|\u0434\u043e\u043a\u0443\u043c\u0435\u043d\u0442|\u0438\u0441\u0442\u043e\u0447\u043d\u0438\u043a|"
             # Arabic (documents, document, information, texts, sources), Hindi (document,
             # information, source), Korean "자료", Japanese "ドキュメント"
             r"\u0648\u062b\u0627\u0626\u0642|\u0648\u062b\u064a\u0642\u0629|\u0645\u0633\u062a\u0646\u062f|"
             r"\u0645\u0639\u0644\u0648\u0645\u0627\u062a|\u0646\u0635\u0648\u0635|\u0645\u0635\u0627\u062f\u0631|"
             r"\u0926\u0938\u094d\u0924\u093e\u0935\u0947\u091c|\u091c\u093e\u0928\u0915\u093e\u0930\u0940|"
             r"\u0938\u094d\u0930\u094b\u0924|\uc790\ub8cc|\u30c9\u30ad\u30e5\u30e1\u30f3\u30c8|"
             r"\u0438\u043d\u0444\u043e\u0440\u043c\u0430\u0446|\u6587\u6863|\u6587\u4ef6|\u8d44\u6599|"
             r"\u4fe1\u606f|\u6587\u66f8|\u8cc7\u6599|\u60c5\u5831|\ubb38\uc11c|\uc815\ubcf4)")
DOC_NOUN = _DOC_NOUN  # the documents named in any of the common languages (ralm.py)
NEG_WORD = _NEG_WORD  # a negation in any of the common languages (ralm_structure.py)
_CLAUSE = re.compile(r"[^,;:.!?\n\u3002\uff0c\u2014\u2013()]+")
_NEG_DOC = re.compile(_NEG_WORD + r"\w*(?:\W+\w+){0,6}?\W*" + _DOC_NOUN + r"|" + _DOC_NOUN
                      + r"\w*(?:\W+\w+){0,6}?\W*" + _NEG_WORD, re.I)
_ABOUT_AGREEMENT = re.compile(r"conflict|contradict|disagree|agree|consistent|differ|discrepan|"
                              r"answerable|d'accord|einig|acuerdo|\u77db\u76fe|\u4e00\u81f4|\uc77c\uce58|"
                              r"\ubaa8\uc21c|\u00e7eli\u015f|\u062a\u0639\u0627\u0631\u0636|\u062a\u0646\u0627\u0642\u0636", re.I)
# Portuguese "no/na/nos/nas" before a document noun is "in the" ("Com base no Documento 1, …").
_PT_IN_THE = re.compile(r"\bn[oa]s?\s+(?=(?:documento|texto|contexto|fonte|informa[\u00e7c]))", re.I)




def negated_documents(body: str) -> re.Match[str] | None:
    """The first clause that negates and speaks of the documents, not of their agreement nor
    of the *other* documents."""
    for clause in _CLAUSE.finditer(body):
        # "No doubt the documents say …": an idiom negates no document
        plain = NOT_NEGATING.sub(" ", _PT_IN_THE.sub("em ", clause.group(0)))
        if _NEG_DOC.search(plain) and not _ABOUT_AGREEMENT.search(clause.group(0)) \
                and not _OTHER_DOCUMENTS.search(clause.group(0)) and not _ONE_DOCUMENT.match(clause.group(0)) \
                and not _DENIES_THAT.match(clause.group(0).strip()):
            return clause
    return None


# "Document 2 states 1889. The other documents don't mention a date.": one document answers.
_OTHER_DOCUMENTS = re.compile(r"\b(?:other|remaining|rest\s+of\s+the)\s+(?:\w+\s+)?(?:documents?|"
                              r"passages?|sources?|texts?|articles?)\b", re.I)
# "Document 2 is about the 2022 final, not 2023", "On re-reading, Document 2 covers 2022, not
# 2023": one document set aside by its number (after a lead-in of up to three words).
_ONE_DOCUMENT = re.compile(r"^\W*(?:(?:but|and|while|whereas|however),?\s+)?(?:(?:[\w-]+\s+){0,2}[\w-]+,\s+)?(?:documents?|docs?|passages?|"
                           r"sources?)\s*#?\s*\d+(?:'s)?\s+(?!(?:and|or|&|to)\b|,)", re.I)


def of_other_documents(body: str, start: int) -> bool:
    """Is the abstention phrase at ``start`` said of only some documents: the *other* ones, or
    one document named by its number as the subject ("Document 2 is about the 2022 final, not
    2023")?"""
    clause = re.split(r"[.;!?\n]", body[:start])[-1]
    return bool(_OTHER_DOCUMENTS.search(clause) or _ONE_DOCUMENT.match(clause))


CONFLICT_BROAD = re.compile(
    r"\bcontradict(?:s|ory|ion|ions|ing)?\b|\bdisagree(?:s|ment|ments)?\b|\b(?:do|does)\s+not"
    r"\s+agree\b|\bdon't\s+agree\b|\binconsisten(?:t|cy|cies)\b|\bdiscrepanc(?:y|ies)\b|"
    r"\b(?:different|differing|varying|mixed|competing|contrasting)\s+(?:answers?|information|"
    r"claims?|years?|dates?|values?|names?|numbers?|figures?|accounts?|results?)\b|"
    r"\b(?:give|gives|present|presents|provide|provides|offer|offers|state|states|list|lists|"
    r"report|reports|say|says|said|tell|tells)\s+different\b|\bdifferent\s+(?:documents?|sources?|passages?)\s+(?:give|say|"
    r"state|report|list|claim|suggest|mention)|\b(?:documents?|sources?|passages?)\s+differ\b|"
    r"\bsome\s+(?:documents?|sources?|passages?)\s+(?:say|state|claim|report|list|mention|attribute|"
    r"give|date|put|suggest|credit|name)\b.*\b(?:others?|other\s+(?:documents?|sources?))\b|"
    r"\bkonflikt\w*|\bconfli\w+|\bcontred\w+|\bat\s+odds\b|\bclash(?:es|ing)?\b|\bmixed\s+signals\b|"
    r"\u51b2\u7a81|\u885d\u7a81|\bodporuj\w*|\brozpor\w*|\u03b1\u03bd\u03c4\u03af\u03b8\u03b5\u03c3\u03b7|"
    r"\u03b1\u03bd\u03c4\u03b9\u03c6\u03b1\u03c4\u03b9\u03ba\w*|\bzinapingana\b|\bzinatofautiana\b|"
    r"\bmots\u00e4ger\b|\bmodsiger\b|\bmotsier\b|\bristiriid\w*|\bristiriita\w*|\bellentmond\w*|"
    r"\bse\s+contrazic\b|\b\u00e7eli\u015f\w*|\bbertentangan\b|\bm\u00e2u\s+thu\u1eabn\b|"
    r"\u05e1\u05ea\u05d9\u05e8\u05d4|\u05e1\u05d5\u05ea\u05e8\u05d9\u05dd|\u062a\u0646\u0627\u0642\u0636|"
    # Arabic "conflict / clash" (تعارض, تتعارض, متعارضة; تضارب, متضاربة)
    r"\u062a\u0639\u0627\u0631\u0636|\u062a\u0636\u0627\u0631\u0628|"
    r"\u0645\u062a\u0646\u0627\u0642\u0636|\u0935\u093f\u0930\u094b\u0927\u093e\u092d\u093e\u0938|"
    r"\u0e02\u0e31\u0e14\u0e41\u0e22\u0e49\u0e07|\u0441\u0443\u043f\u0435\u0440\u0435\u0447\u043d\w*|"
    r"\u77db\u76fe|\u043a\u043e\u043d\u0444\u043b\u0438\u043a\u0442|"
    r"\u043f\u0440\u043e\u0442\u0438\u0432\u043e\u0440\u0435\u0447|\u0440\u0430\u0441\u0445\u043e\u0434"
    r"|\b(?:documents?|sources?|passages?)\s+(?:give|list|name|mention|provide|report|offer)\s+(?:two|three|"
    r"multiple|several)\s+(?:different\s+)?\w+|\u4e0d\u4e00\u81f4|\u98df\u3044\u9055|"
    r"\ubaa8\uc21c|\bwiderspr\u00fcch\w*|\bwidersprechen\b|\bcontradi\w*|\bcontraz\w*|\bkontradikt\w*|"
    r"\bvastuolu\w*|\bweerspreek\b|\bteenstrydig\w*|\bprotire\u010d\w*|\bproturje\u010d\w*|"
    r"\bnes\u00falad\w*|\bnesklad\w*|\bnasprotuj\w*|\bpretrun\w*|\bstangast\b|\bgwrth-ddweud\b|"
    r"\bkontraesan\w*|\bziddiyy\w*|\u043a\u043e\u043d\u0442\u0440\u0430\u0434\u0438\u043a\u0442\w*|"
    r"\u043f\u0440\u043e\u0442\u0438\u0432\u0440\u0435\u0447\w*|\u049b\u0430\u0439\u0448\u044b|"
    r"\u0935\u093f\u0930\u094b\u0927\u093e\u092d\u093e\u0938|\bcontraddi\w*|"
    r"\bcontradit\w*|\btegenstrijdig\w*|\bsprzeczn\w*|"
    # "the documents don't match", "mismatch", "multiple answers found"
    r"\b(?:do|does|did)\s*(?:not|n't)\s+(?:match|line\s+up|align|add\s+up|tally|square)\b|"
    r"\bmismatch(?:ed|es)?\b|\b(?:not|n't)\s+(?:consistent|in\s+agreement|aligned)\b|\b(?:ne\s+sont\s+)?pas\s+d'accord\b|\bnicht\s+einig\b|\bno\s+est[\u00e1a]n\s+de\s+"
    r"acuerdo\b|\bnon\s+sono\s+d'accordo\b|\bn[\u00e3a]o\s+concordam\b|\u043d\u0435\s+\u0441\u043e\u0433\u043b"
    r"\u0430\u0441\u0443\u044e\u0442\u0441\u044f|\b(?:unterschiedliche|verschiedene)\s+(?:Jahre|Daten|Angaben|"
    r"Zahlen|Werte|Namen|Antworten)\b|\bdiff[\u00e9e]rent(?:e?s)\s+(?:dates|ann[\u00e9e]es|valeurs|chiffres|"
    r"r[\u00e9e]ponses|noms)\b|\b(?:dates|ann[\u00e9e]es|valeurs|chiffres|r[\u00e9e]ponses)\s+diff[\u00e9e]rent"
    r"(?:e?s)\b|\b(?:a[\u00f1n]os|fechas|valores|cifras|respuestas|nombres)\s+(?:diferentes|distint[oa]s)\b|"
    r"\b(?:diferentes|distint[oa]s)\s+(?:a[\u00f1n]os|fechas|valores|cifras|respuestas)\b|"
    r"\u4e0d\u540c\u7684(?:\u5e74\u4efd|\u65e5\u671f|\u6570\u5b57|\u7b54\u6848)|\b(?:multiple|several|more\s+than\s+one)\s+(?:different\s+|possible\s+|"
    r"candidate\s+)?(?:answers?|values?|dates?|years?|names?|figures?|candidates?)\b|"
    r"\b(?:figures|values|numbers|dates|years|answers|accounts|reports|documents|sources|passages|"
    r"claims)\s+(?:vary|differ|diverge|conflict)\b|\bvar(?:y|ies)\s+(?:across|between|among)\b|"
    r"\boutlier\b|\bspreken\s+elkaar\s+tegen\b|\bkomen\s+niet\s+overeen\b|\bno\s+coinciden\b|"
    r"\b(?:difieren|discrepan|divergen|divergem|divergent|diff\u00e8rent)\b|\bne\s+concordent\s+pas\b|"
    r"\bstimmen\s+nicht\s+\u00fcberein\b|\bnon\s+concordano\b|\bn[\u00e3a]o\s+coincidem\b|"
    r"\u8bf4\u6cd5\u4e0d\u540c|\u4e00\u81f4\u3057\u306a\u3044|\uc77c\uce58\ud558\uc9c0\s*\uc54a|"
    r"\u7570\u306a(?:\u308b|\u308a\u307e\u3059|\u3063\u3066)|\ub2e4\ub974|"  # ja / ko: "differ"
    # "disagree" / "not consistent" in more languages (da/no uenige, sv oense, vi, it "diverse")
    r"\buenige?\b|\boense\b|\bkh\u00f4ng\s+th\u1ed1ng\s+nh\u1ea5t\b|"
    r"\b(?:lunghezze|date|anni|valori|cifre|risposte|nomi|numeri)\s+divers[ei]\b|"
    # a document the reply sets aside as wrong: "not 1913 as one document wrongly states"
    r"\b(?:one|another|a|some|the\s+other|other)\s+(?:documents?|sources?|passages?)\s+(?:\w+\s+)?"
    r"(?:wrongly|mistakenly|incorrectly|erroneously)\b", re.I)
_DOC = (r"(?:doc(?:ument)?s?|documento?s?|dokumente?n?|passages?|sources?|articles?)\s*#?\d*"
        r"(?:\s*(?:and|,|&)\s*\d+)*")
_DOC_SAYS = (r"(?:says?|states?|claims?|lists?|gives?|attributes?|credits?|names?|mentions?|"
             r"reports?|suggests?|puts?|dates?|indicates?|uses?|cites?|records?|shows?)")
# "Document 1 says X, while Document 3 says Y"; "X, though one document says Y".
CONTRAST_DOCS = re.compile(
    r"\b(?:but|while|whereas|however|though|although|yet|;)\W+(?:\w+\W+){0,2}?(?:(?:one|another|"
    r"other|some|a|an|the\s+other)\s+)?" + _DOC + r"\s+" + _DOC_SAYS + r"\b|\b" + _DOC + r"\s+"
    + _DOC_SAYS + r"\b[^.;]{1,80}?(?:\b(?:but|while|whereas|however|though|although|and)\b|[;,])\W*"
    r"(?:(?:one|another|other|some|the\s+other)\s+)?" + _DOC + r"\s+" + _DOC_SAYS + r"\b|"
    r"\b(?:although|though|while|whereas)\s+" + _DOC + r"\s+" + _DOC_SAYS + r"\b|"
    r"\b(?:doc(?:ument)?s|sources|passages)\b[^.]{0,80}\b(?:but|while|whereas|however|though|"
    r"although)\s+(?:one|another|others|some|the\s+other|a\s+few)\s+(?:\w+\s+)?" + _DOC_SAYS
    + r"\b|\b" + _DOC + r"\s+(?:differ|disagree|diverge|vary|conflict)\b|\b(?:one|some|a)\s+" + _DOC
    + r"\s+" + _DOC_SAYS + r"\b[^.;]{1,80}?\b(?:another|others?|the\s+"
    r"other|a\s+second)(?:\s+" + _DOC + r")?\s+" + _DOC_SAYS + r"\b|"
    # "Document 3 says 1990, the others 1989"
    r"\b" + _DOC + r"\s+" + _DOC_SAYS + r"\b[^.;]{1,60}?,\s*(?:but\s+|while\s+)?(?:the\s+)?others?\b|"
    # "Mercury in one, Pluto in another", "according to one source …, according to another …"
    r"\b(?:in|according\s+to|per)\s+one\b(?:\s+" + _DOC + r")?[^.;]{0,60}?\b(?:in|according\s+to|per)\s+"
    r"(?:another|the\s+other|others)\b|"
    # "8.3 million in Document 1 versus 8.8 million in Document 2"
    r"\b(?:in|per|according\s+to|from|laut|seg[\u00fau]n)\s+" + _DOC + r"[^.;]{0,60}?\b(?:versus|vs\.?|"
    r"but|while|whereas|and|und|y)\b[^.;]{0,60}?\b(?:in|per|according\s+to|from|laut|seg[\u00fau]n)\s+"
    + _DOC, re.I)
# Values the reply attributes to documents ("Document 1: 1905. Document 2: 1906.")
_DOC_VALUE = re.compile(r"\b(?:doc(?:ument)?s?|passages?|sources?|articles?)\s*#?\s*\d+(?:\s*(?:,|and|&)\s*"
                        r"\d+)*(?:'s)?\s*(?:says?|"
                        r"states?|gives?|lists?|has|reports?|claims?|[:=\-\u2013\u2014])?\s*"
                        r"(?P<v>\d[\d,.]*\d|\d)", re.I)
# A document set aside as wrong ("Document 2's 1906 appears to be a typo") was seen to disagree.
_DOC_FLAGGED = re.compile(r"\b(?:doc(?:ument)?|passage|source|article)\s*#?\s*\d+(?:'s)?[^.;]{0,30}?\b"
                          r"(?:typo|error|mistake|outlier|wrong(?:ly)?|incorrect(?:ly)?|mistaken(?:ly)?|"
                          r"inaccurate|erroneous(?:ly)?|older|outdated|out\s+of\s+date|superseded)\b", re.I)
# Two different values side by side, the reply speaking of documents ("Sources give 1905 and
# 1906 respectively"); not a range ("between 1939 and 1945").
_TWO_VALUES = re.compile(r"(?<!between\s)(?<!from\s)\b(?P<a>\d{3,4})\s*(?:,|and|or|vs\.?|versus|/|&)\s*"
                         r"(?P<b>\d{3,4})\b", re.I)


def documents_differ(body: str) -> bool:
    if len({m.group("v").rstrip(".,") for m in _DOC_VALUE.finditer(body)}) >= 2:
        return True
    flagged = _DOC_FLAGGED.search(body)
    if flagged is not None and not negated(body, flagged.start()):
        return True
    return any(m.group("a") != m.group("b") for m in _TWO_VALUES.finditer(body)) and bool(
        re.search(r"\b(?:documents|sources|passages|respectively)\b", body, re.I))



# "No need to say unanswerable here: …", "there's no reason to call this a conflict", "I don't
# have to write 'unanswerable'": the keyword is what the reply needn't say.
_NEEDLESS = re.compile(r"(?:\bno\s+(?:need|reason|call)|\bneedn't|\bneed\s+not|\b(?:don't|do\s+not|doesn't|"
                       r"does\s+not)\s+(?:need|have)|\b(?:not\s+necessary|unnecessary|pointless))\s+to\s+(?:say|"
                       r"write|answer|respond(?:\s+with)?|reply(?:\s+with)?|call\s+(?:it|this|that)|flag|"
                       r"report|declare|claim|mark\s+(?:it|this))\s+(?:(?:an?|it|this)\s+)?[\"'`*]*$", re.I)
# Arabic negation before a keyword ("لا يوجد تعارض": there is no conflict)
_NEG_AR = re.compile(r"(?:^|\s)(?:\u0644\u0627|\u0644\u064a\u0633|\u0644\u064a\u0633\u062a|\u0644\u0645|"
                     r"\u063a\u064a\u0631|\u0628\u062f\u0648\u0646|\u0628\u0644\u0627)(?:\s+\S+)?\s*$")


# "It isn't true that the documents lack this", "It's not the case that …": the clause denies
# what follows it.
_DENIES_THAT = re.compile(r"(?:^\W*|\b)(?:(?:it\s+)?(?:isn't|is\s+not|wasn't|was\s+not)|it's\s+not|not|hardly)\s+"
                          r"(?:(?:at\s+all\s+)?true|the\s+case|so|correct|right|accurate|fair\s+to\s+say)\s+"
                          r"that\b[^.;:!?]*$", re.I)


def negated(text: str, start: int) -> bool:
    head = text[max(0, start - 40):start]
    head = re.split(r"[.;:!?\n]|\bbut\b", head)[-1]
    return bool(re.search(_NEG, head, re.I) or _NEEDLESS.search(head) or _NEG_AR.search(head)
                or _DENIES_THAT.search(head))

