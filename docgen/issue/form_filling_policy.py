"""A difference policy for pyHanko that admits exactly form filling after a certification
(DESIGN.md, "Signed documents"): what a director's PDF reader writes when the Exhibit I or a
Deferral Election Form is filled, and nothing else.

pyHanko's default policy rejects a pypdf fill of a radio group (it will not have a radio button's
widgets change) and misses structure-tree references held in an array, so a form filled the way
our tests fill it (pdf.js as Firefox does, pypdf as a script does) would read as "changed in other
ways". This policy judges each object written after the certified revision by what it was there:

- a form field or widget of the certified revision: only its value and appearance may change
  (``/V``, ``/AS``, ``/AP``, ``/M``, and how its box is drawn: ``/BS``, ``/MK``, ``/DA``, as
  PyMuPDF writes them), nothing that says what the field is or where it sits (its flags
  ``/Ff`` only written again with the same value);
- an appearance stream of such a widget, and the AcroForm dictionary's ``/NeedAppearances`` and
  ``/DR`` (fonts for the appearances), may be written again;
- an object new in the later revision is reachable only through those, so it may be added;
- anything else (a page, its content, the catalog, the structure tree, the record) may not, and
  no object may be freed.
"""

from __future__ import annotations

from typing import Any

FIELD_KEYS = frozenset({"/V", "/AS", "/AP", "/M"})
# How a field is drawn, not what it is or holds: its border style and width, its border and
# background colours, its default font, size and colour. PyMuPDF writes them again when it
# fills a field (issue 44); they change the look of the field's own box, never its value.
APPEARANCE_KEYS = frozenset({"/BS", "/MK", "/DA"})
ACROFORM_KEYS = frozenset({"/NeedAppearances", "/DR"})


def form_filling_policy() -> Any:
    """The policy (pyHanko's DiffPolicy), made when pyHanko is imported."""
    from pyhanko.pdf_utils import generic
    from pyhanko.sign.diff_analysis import DiffPolicy, DiffResult, ModificationLevel
    from pyhanko.sign.diff_analysis.policy_api import SuspiciousModification

    def fields_and_appearances(old: Any) -> tuple[set[Any], set[Any], Any]:
        """The certified revision's field and widget objects, their appearance streams, and its
        AcroForm dictionary's reference."""
        fields: set[Any] = set()
        appearances: set[Any] = set()
        root = old.root
        if "/AcroForm" not in root:
            return fields, appearances, None
        acro_raw = root.raw_get("/AcroForm")
        acro = acro_raw.get_object()
        pending = _raw_items(acro, "/Fields", generic)
        while pending:
            entry = pending.pop()
            if not isinstance(entry, generic.IndirectObject) or entry.reference in fields:
                continue
            fields.add(entry.reference)
            node = entry.get_object()
            appearances.update(_appearance_refs(node, generic))
            pending.extend(_raw_items(node, "/Kids", generic))
        acro_ref = acro_raw.reference if isinstance(acro_raw, generic.IndirectObject) else None
        return fields, appearances, acro_ref

    def differing(old_obj: Any, new_obj: Any) -> set[str]:
        if not isinstance(old_obj, dict) or not isinstance(new_obj, dict):
            return {"(the object itself)"}
        old_dict: Any = old_obj
        new_dict: Any = new_obj  # pyHanko's dictionaries, read without resolving (raw_get)
        keys = set(old_dict) | set(new_dict)
        return {
            k
            for k in keys
            if k not in old_dict or k not in new_dict or old_dict.raw_get(k) != new_dict.raw_get(k)
        }

    class FormFillingPolicy(DiffPolicy):
        def apply(self, old, new, field_mdp_spec=None, doc_mdp=None):
            reader = new.reader
            if new.root_ref != old.root_ref:
                raise SuspiciousModification("the document catalog was replaced")
            changed: set[Any] = set()
            for revision in range(old.revision + 1, new.revision + 1):
                if reader.xrefs.refs_freed_in_revision(revision):
                    raise SuspiciousModification(f"objects were freed in revision {revision}")
                changed |= set(reader.xrefs.explicit_refs_in_revision(revision))
            fields, appearances, acro = fields_and_appearances(old)
            level = ModificationLevel.NONE
            for ref in sorted(changed, key=lambda r: (r.idnum, r.generation)):
                before = old.get_object(ref)
                if isinstance(before, generic.NullObject):
                    continue  # new in the later revision: reachable only as allowed here
                after = new.get_object(ref)
                if ref in appearances:
                    level = ModificationLevel.FORM_FILLING
                    continue
                keys = differing(before, after)
                if ref in fields and "/Rect" in keys and _rounded(before, after, generic):
                    keys.discard("/Rect")  # pdf.js writes a widget's /Rect to two decimals
                if ref in fields and "/Ff" in keys and _same_flags(before, after):
                    keys.discard("/Ff")  # PyMuPDF writes /Ff 0 where none was: the same flags
                if ref == old.root_ref and keys == {"/AcroForm"}:
                    # The AcroForm dictionary written in the catalog (WeasyPrint's forms): the
                    # catalog may change in it alone, and it only as the AcroForm may.
                    keys = differing(before["/AcroForm"], after["/AcroForm"])
                    ref = acro = "the catalog's AcroForm"
                if not keys:
                    continue
                allowed = (
                    FIELD_KEYS | APPEARANCE_KEYS
                    if ref in fields
                    else ACROFORM_KEYS
                    if ref == acro
                    else None
                )
                if allowed is None or not keys <= allowed:
                    what = "a form field's" if ref in fields else "an object's"
                    raise SuspiciousModification(
                        f"{what} {', '.join(sorted(keys))} changed ({_named(ref)}): more than "
                        "filling in the form"
                    )
                level = ModificationLevel.FORM_FILLING
            return DiffResult(level, set())

        def review_file(self, reader, base_revision, field_mdp_spec=None, doc_mdp=None):
            base = (
                reader.get_historical_resolver(base_revision)
                if isinstance(base_revision, int)
                else base_revision
            )
            result = DiffResult(ModificationLevel.NONE, set())
            for revision in range(base.revision + 1, reader.xrefs.total_revisions):
                try:
                    step = self.apply(base, reader.get_historical_resolver(revision))
                except SuspiciousModification as error:
                    return error
                result = DiffResult(max(result.modification_level, step.modification_level), set())
            return result

    return FormFillingPolicy()


def _appearance_refs(node: Any, generic: Any) -> list[Any]:
    """The indirect appearance streams of a widget: /AP's /N, /D and /R, or their states."""
    if "/AP" not in node:
        return []
    ap = node["/AP"]
    found = []
    for kind in ("/N", "/D", "/R"):
        if kind not in ap:
            continue
        entry = ap.raw_get(kind)
        if isinstance(entry, generic.IndirectObject):
            found.append(entry.reference)
            entry = entry.get_object()
        if isinstance(entry, dict) and not hasattr(entry, "data"):
            states: Any = entry  # a pyHanko dictionary of appearance states (raw_get)
            for state in entry:
                value = states.raw_get(state)
                if isinstance(value, generic.IndirectObject):
                    found.append(value.reference)
    return found


def _raw_items(node: Any, key: str, generic: Any) -> list[Any]:
    """An array's entries as written (indirect references unresolved)."""
    if key not in node:
        return []
    array = node.raw_get(key)
    if isinstance(array, generic.IndirectObject):
        array = array.get_object()
    return [array.raw_get(index) for index in range(len(array))]


def _named(ref: Any) -> str:
    return ref if isinstance(ref, str) else f"object {ref.idnum}"


def _rounded(before: Any, after: Any, generic: Any) -> bool:
    """The widget's /Rect is the same rectangle, written with fewer decimals (within 0.01)."""
    if "/Rect" not in before or "/Rect" not in after:
        return False
    old, new = before["/Rect"], after["/Rect"]
    if len(old) != 4 or len(new) != 4:
        return False
    try:
        return all(abs(float(a) - float(b)) < 0.01 for a, b in zip(old, new, strict=True))
    except (TypeError, ValueError):
        return False


def _same_flags(before: Any, after: Any) -> bool:
    """The field's flags (/Ff) mean the same: equal, an absent value counting as 0."""
    try:
        return int(before.get("/Ff", 0)) == int(after.get("/Ff", 0))
    except (TypeError, ValueError):
        return False
