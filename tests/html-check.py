#!/usr/bin/env python3
"""html-check.py - is a rendered handout a sound, self-contained HTML page?

usage: tests/html-check.py PAGE.html [--tag NAME]... [--text TEXT]...

Checks that every element opened is closed, in order (the void elements of HTML excepted); that
the page loads nothing from elsewhere (every script, image and stylesheet is embedded); that each
--tag NAME occurs; and that each --text TEXT occurs in the page's text, tags removed and entities
decoded (so a line of highlighted code is found whatever spans the highlighter put in it).
Exit 0 when all hold; 1 naming each failure."""
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.tags, self.text = [], [], set(), []

    def fail(self, msg):
        line, col = self.getpos()
        self.errors.append(f"line {line}:{col}: {msg}")

    def external(self, tag, attrs):
        a = dict(attrs)
        if tag in ("img", "script") and a.get("src") and not a["src"].startswith("data:"):
            self.fail(f"<{tag}> loads {a['src']}")
        if tag == "link" and "stylesheet" in (a.get("rel") or "") and not (a.get("href") or "").startswith("data:"):
            self.fail(f"<link> loads {a.get('href')}")

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.external(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):  # <x ... />: opened and closed at once
        self.tags.add(tag)
        self.external(tag, attrs)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.fail(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
            if tag in self.stack:  # resynchronise, so one error is reported once
                del self.stack[len(self.stack) - 1 - self.stack[::-1].index(tag):]
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        page = Page()
        page.feed(f.read())
        page.close()
    errors = page.errors + [f"<{t}> never closed" for t in page.stack]
    if not {"html", "head", "body"} <= page.tags:
        errors.append("no <html>, <head> or <body>")
    text = "".join(page.text)
    for opt, value in zip(argv[2::2], argv[3::2]):
        if opt == "--tag" and value not in page.tags:
            errors.append(f"no <{value}> element")
        elif opt == "--text" and value not in text:
            errors.append(f"text not found: {value}")
        elif opt not in ("--tag", "--text"):
            errors.append(f"unknown option {opt}")
    for e in errors:
        print(f"{argv[1]}: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
