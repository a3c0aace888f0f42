#!/usr/bin/env python3
"""Writes the conformance matrix: cases x readers x outcome, as one HTML page
and one JSON document, from tracelint-conform JSON reports.

Usage: matrix.py --html=OUT.html --json=OUT.json NAME=REPORT.json...

NAME labels the reader's column. Each case gets the intent its .expected
sidecar states ("# intent:", corpus/README.md), in the manner of
JSONTestSuite: "must accept", "must reject" or "either" (readers may
legitimately differ; the sidecar says why). A cell is the outcome: agree,
lenient (the reader accepts what tracelint rejects), strict (it rejects what
tracelint accepts), content differs (it accepts but decodes otherwise than the
expected content), crash or hang; on an "either" case a refusal is shown as
"refused (either)" and an acceptance tracelint does not share as "accepted
(either)".
Each cell says tracelint's diagnostic (location and message) and the reader's
first message line, and the case links to its file and sidecar."""
import html
import json
import os
import sys


INTENTS = {"must-accept": "must accept", "must-reject": "must reject", "either": "either"}


def intent_of(result):
    """The case's stated intent; a report without one (an older kit, or a
    case outside the corpus) shows "unstated"."""
    return INTENTS.get(result.get("intent", ""), "unstated")


def outcome_of(result, intent):
    cls = result["class"]
    if cls == "agree" and result.get("content") == "differs":
        return "content differs"
    if cls == "strict" and intent == "either":
        return "refused (either)"
    if cls == "lenient" and intent == "either":
        return "accepted (either)"
    return cls


def main(argv):
    out_html = out_json = None
    inputs = []
    for a in argv[1:]:
        if a.startswith("--html="):
            out_html = a.split("=", 1)[1]
        elif a.startswith("--json="):
            out_json = a.split("=", 1)[1]
        elif "=" in a:
            inputs.append(a.split("=", 1))
        else:
            sys.stderr.write(__doc__)
            return 2
    if not inputs or not out_html or not out_json:
        sys.stderr.write(__doc__)
        return 2
    readers = []
    cases = {}
    for name, path in inputs:
        with open(path, encoding="utf-8") as f:
            rep = json.load(f)
        fmt = rep["format"]
        corpus = rep["corpus"].split(", ")[0]
        readers.append({"name": name, "format": fmt, "command": rep["reader"],
                        "tracelint": rep["tracelint"]})
        for r in rep["results"]:
            key = (fmt, r["case"])
            intent = intent_of(r)
            row = cases.setdefault(key, {"format": fmt, "case": r["case"], "intent": intent,
                                         "intent_why": r.get("intent_why", ""),
                                         "file": os.path.join(corpus, r["case"]),
                                         "rule": r["rule"], "at": r.get("at", ""),
                                         "tracelint_message": r.get("tracelint_message", ""),
                                         "readers": {}})
            row["readers"][name] = {"outcome": outcome_of(r, intent), "reader_outcome": r["outcome"],
                                    "message": r["message"], "content_diff": r.get("content_diff", ""),
                                    "explanation": r.get("explanation", r.get("content_explanation", ""))}
    rows = [cases[k] for k in sorted(cases)]
    with open(out_json, "w", encoding="utf-8") as f:
        json.dump({"readers": readers, "cases": rows}, f, indent=1, sort_keys=True)
        f.write("\n")
    colours = {"agree": "#d7f0d2", "lenient": "#fde2b5", "strict": "#f9c9c0", "content differs": "#e4d3f5",
               "crash": "#e06666", "hang": "#e06666", "refused (either)": "#eeeeee",
               "accepted (either)": "#eeeeee"}
    e = html.escape
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           "<title>tracelint conformance matrix</title><style>",
           "body{font-family:sans-serif;font-size:13px}table{border-collapse:collapse}",
           "td,th{border:1px solid #bbb;padding:2px 6px;vertical-align:top}",
           "td.c{white-space:nowrap}details{max-width:28em}</style></head><body>",
           "<h1>Conformance matrix</h1>",
           "<p>Cases of the tracelint corpus &times; readers &times; outcome. Intent, as each case's "
           "sidecar states it: <b>must accept</b>, <b>must reject</b>, <b>either</b> (readers may "
           "legitimately differ; hover for why). Outcomes: agree, lenient (accepts what must be "
           "rejected), strict (rejects what must be accepted), refused or accepted (either), "
           "content differs (accepts, decodes otherwise than the "
           "case's expected content), crash, hang. Open a cell for tracelint's diagnostic and the "
           "reader's message.</p><ul>"]
    for r in readers:
        out.append("<li><b>%s</b> (%s): <code>%s</code></li>" % (e(r["name"]), e(r["format"]), e(r["command"])))
    out.append("</ul>")
    summary = {}
    for row in rows:
        for name, cell in row["readers"].items():
            summary.setdefault(name, {}).setdefault(cell["outcome"], 0)
            summary[name][cell["outcome"]] += 1
    out.append("<h2>Summary</h2><table><tr><th>reader</th>%s</tr>" %
               "".join("<th>%s</th>" % e(o) for o in colours))
    for r in readers:
        out.append("<tr><td>%s</td>%s</tr>" % (e(r["name"]), "".join(
            "<td>%d</td>" % summary.get(r["name"], {}).get(o, 0) for o in colours)))
    out.append("</table><h2>Cases</h2><table><tr><th>format</th><th>case</th><th>intent</th>%s</tr>" %
               "".join("<th>%s</th>" % e(r["name"]) for r in readers))
    for row in rows:
        link = os.path.relpath(row["file"], os.path.dirname(os.path.abspath(out_html)))
        cells = []
        for r in readers:
            cell = row["readers"].get(r["name"])
            if not cell:
                cells.append("<td></td>")
                continue
            detail = []
            if row["rule"]:
                detail.append("tracelint: %s at %s: %s" % (row["rule"], row["at"] or "?", row["tracelint_message"] or "-"))
            detail.append("reader: %s: %s" % (cell["reader_outcome"], cell["message"] or "(no message)"))
            if cell["content_diff"]:
                detail.append("content: " + cell["content_diff"])
            if cell["explanation"]:
                detail.append("why: " + cell["explanation"])
            cells.append("<td class=\"c\" style=\"background:%s\"><details><summary>%s</summary>%s</details></td>" % (
                colours.get(cell["outcome"], "#fff"), e(cell["outcome"]),
                "<br>".join(e(d) for d in detail)))
        intent = e(row["intent"])
        if row["intent_why"]:
            intent = "<span title=\"%s\">%s</span>" % (e(row["intent_why"]), intent)
        out.append("<tr><td>%s</td><td><a href=\"%s\">%s</a></td><td>%s</td>%s</tr>" % (
            e(row["format"]), e(link), e(row["case"]), intent, "".join(cells)))
    out.append("</table></body></html>")
    with open(out_html, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
