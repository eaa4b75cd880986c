"""A custom rule set's rules page, built from its parameters like the named rule sets' pages.

The rule sections are the rules pages' own parameter-driven sentences
(:func:`damiera.web.rules_pages.content.rule_sections`), so a custom rule set is stated in
the same words, in every language the site has; the goal options' rules replace "no piece or
no move loses" when they are on; the diagrams come from :mod:`damiera.web.custom.diagrams`
and the comparison with American checkers from the rule parameters.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from damiera.rules.position import parse_fen
from damiera.rules.same_rules import named_rule_set
from damiera.rules.variant import VARIANTS, Variant
from damiera.web.custom.diagrams import custom_diagrams
from damiera.web.custom.strings import SAME_RULES, UI
from damiera.web.pages import rules_url
from damiera.web.rules_pages.comparison import comparison
from damiera.web.rules_pages.content import (
    DIFFERENCES_NOTE,
    WIN,
    RulesPage,
    render_diagram,
    rule_faq,
    rule_sections,
)
from damiera.web.rules_pages.diagram_model import BREAKTHROUGH_PAGE, LOSING_PAGE, Diagram
from damiera.web.rules_pages.messages import Translate
from damiera.web.rules_pages.options import OPTION_PAGES
from damiera.web.rules_pages.routes import board_json, isolate_page, notation_html
from damiera.web.serialization import pieces_json


def build_custom_page(v: Variant, gettext: Translate) -> RulesPage:
    """The translated rules page of the custom rule set ``v`` (its diagrams in their
    sections, captions with the moves kept left-to-right)."""
    t = gettext
    sections = rule_sections(v, t)
    end = sections["end"]
    goal = LOSING_PAGE if v.losing else BREAKTHROUGH_PAGE if v.breakthrough else None
    tips: list[str] = []
    if goal is not None:
        option = OPTION_PAGES[goal]
        rule = [t(p) for p in option.paragraphs[:1]]
        end.paragraphs = [*rule, *(p for p in end.paragraphs if p != t(WIN) or not v.losing)]
        tips += [t(x) for x in option.tips]
    if not v.mandatory_capture:
        tips += [t(x) for x in OPTION_PAGES["optional-capture"].tips]
    diagrams = custom_diagrams(v)
    for d in diagrams:
        rendered = render_diagram(d, t)
        rendered.caption = caption_html(d, t)
        sections[d.section].diagrams.append(rendered)
    page = RulesPage(
        id="custom", title=v.name, intro=t(UI["page_intro"]), sections=list(sections.values()),
        table=comparison(v, t), table_note=t(DIFFERENCES_NOTE), is_reference=False, tips=tips,
        faq=rule_faq(v, sections, t), variant=None,
        others=[(pid, t(named.name)) for pid, named in VARIANTS.items()],
    )
    isolate_page(page)
    return page


def same_rules_json(v: Variant, lang: str, gettext: Translate) -> dict[str, str] | None:
    """What to say when ``v`` plays a named rule set's games
    (:func:`damiera.rules.same_rules.named_rule_set`), or None: ``full_id`` (with its options,
    ``russian+breakthrough``), ``name`` (translated, the options in brackets), ``url`` (that
    rule set's rules page in ``lang``) and ``text`` ("These are the rules of Russian
    draughts."), with ``before`` and ``after``, the text around the name, for a page to link
    the name."""
    named = named_rule_set(v)
    if named is None or named.id == v.id:
        return None
    t = gettext
    words = [t(word) for on, word in ((named.optional_capture, "captures optional"),
                                      (named.losing, "losing rule"),
                                      (named.breakthrough, "breakthrough")) if on]
    name = t(named.name) + (f" ({', '.join(words)})" if words else "")
    before, _, after = t(SAME_RULES).partition("%(name)s")
    return {"full_id": named.full_id, "name": name, "url": rules_url(lang, named),
            "text": before + name + after, "before": before, "after": after}


def caption_html(d: Diagram, gettext: Translate) -> Markup:
    """A diagram's caption as HTML: translated, each move kept left-to-right."""
    params = {k: notation_html(value) for k, value in d.caption_params().items()}
    return escape(gettext(d.caption)) % params


def page_data(v: Variant) -> dict[str, Any]:
    """What ``rules.js`` draws: the board and every diagram's position and highlights."""
    diagrams: dict[str, Any] = {}
    for d in custom_diagrams(v):
        position = parse_fen(v, d.fen)
        rendered = render_diagram(d, str)
        diagrams[d.id] = {
            "variant": d.variant, "optional_capture": d.optional_capture, "fen": d.fen,
            "pieces": pieces_json(v, position), "turn": position.turn.word,
            "shown": rendered.shown, "crowned_piece": rendered.crowned_piece,
            "from_square": d.from_square,
            "reach": [m["to"] for m in rendered.legal_moves if m["from"] == d.from_square],
        }
    return {"boards": {v.full_id: board_json(v.full_id)}, "diagrams": diagrams}
