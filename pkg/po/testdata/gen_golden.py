#!/usr/bin/python3
"""Generate golden_output.po: translate-toolkit's rendering of input.po after
the edits that TestGolden makes with this package (Weblate's way of saving a
translation: set target, set the fuzzy state, drop previous strings unless
fuzzy; update the header; add a unit before the obsolete ones).

Usage: cd testdata && /usr/bin/python3 gen_golden.py

Needs translate-toolkit 3.17.3 or later (wrapping by unicode-segmentation-rs's
gettext_wrap). The file was first made with 3.8 (PoWrapper) and then updated
for the newer quoteforpo, which adds a leading "" line whenever a string takes
two lines or more: only the Japanese msgstr changed.
"""
from translate.misc.multistring import multistring
from translate.storage import pypo

with open("input.po", "rb") as handle:
    store = pypo.pofile(handle.read())


def find(source, context=""):
    for unit in store.units:
        if unit.source == source and unit.getcontext() == context and not unit.isobsolete():
            return unit
    raise KeyError(source)


def save(unit, target, fuzzy):
    unit.target = target
    unit.markfuzzy(fuzzy)
    if not fuzzy:
        unit.prev_msgid = []
        unit.prev_msgid_plural = []
        unit.prev_msgctxt = []


save(find("Hello"), "Bonjour", False)
save(
    find(
        "Read the manual at https://docs.example.org/en/latest/user-guide/getting-"
        "started.html before you continue with %(name)s"
    ),
    "Lisez le manuel sur https://docs.example.org/fr/latest/user-guide/getting-started.html "
    "avant de continuer avec %(name)s — c'est-à-dire « maintenant »",
    False,
)
save(find("Delete %d files now"), "Supprimer %d fichiers maintenant", True)
save(find("New text"), "Nouveau texte", False)
save(
    find(multistring(["One file was removed", "%d files were removed"])),
    multistring(["Un fichier a été supprimé", "%d fichiers ont été supprimés\nVoir le journal"]),
    False,
)
save(find("Open", "menu"), 'Ouvrir "vite"\tavec \\ barre', False)
save(
    find("A long sentence that will be translated into Japanese for the width test."),
    "これは幅のテストのために日本語に翻訳される長い文章です。全角文字は二桁として数えられます。",
    False,
)

store.updateheader(add=True, Last_Translator="Jane Doe <jane@example.org>")
store.updateheader(add=True, PO_Revision_Date="2024-06-01 12:00+0000")
store.updateheader(add=True, X_Custom_Field="yes")

unit = store.UnitClass("Brand new string", wrapper=store.wrapper)
unit.setcontext("new")
unit.target = "Toute nouvelle chaîne"
first_obsolete = next(i for i, u in enumerate(store.units) if u.isobsolete())
unit._store = store
store.units.insert(first_obsolete, unit)

with open("golden_output.po", "wb") as handle:
    handle.write(bytes(store))
