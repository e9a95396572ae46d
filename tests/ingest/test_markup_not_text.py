"""No markup is published as text: an XML document with a prolog (declaration, processing instructions,
comments, a DOCTYPE) is read as XML, one that declares entities is refused; a CSV row with broken quoting is
quarantined alone, never published split at a guess (pipeline.ingest.readers.sniff, xml_records, table)."""

from pipeline.ingest.records import listing_records

PAPERS = "<papers><paper id='1'><title>A</title><abstract>We propose a method.</abstract></paper></papers>"


def _rows(text: str, name: str) -> list[tuple]:
    frame, _ = listing_records(text.encode(), name)
    return frame.select("reader", "title", "abstract_raw", "decode_error").rows()


def test_xml_with_a_prolog_doctype_or_comments_is_read_as_xml():
    for prolog in (
        '<?xml version="1.0"?>\n<!DOCTYPE papers SYSTEM "papers.dtd">\n',
        "<!-- exported 2024 -->\n<?xml-stylesheet href='a.xsl'?>\n",
        "<!DOCTYPE papers [\n<!ELEMENT papers ANY>\n]>\n<!-- comment -->\n",
    ):
        assert _rows(prolog + PAPERS, "papers.txt") == [("xml", "A", "We propose a method.", None)], prolog
    rss = '<?xml version="1.0"?><!DOCTYPE rss PUBLIC "-//Netscape//DTD RSS 0.91//EN" "rss.dtd"><rss><channel>'
    rss += "<title>arXiv</title><item><title>A</title><description>We propose.</description></item></channel></rss>"
    assert _rows(rss, "feed.xml") == [("feed", "A", "We propose.", None)]


def test_xml_declaring_entities_is_refused_not_published():
    doc = '<?xml version="1.0"?>\n<!DOCTYPE papers [\n<!ENTITY e "injected text">\n]>\n' + PAPERS.replace(
        "We propose", "We &e; propose"
    )
    assert _rows(doc, "entity.xml") == [
        (
            None,
            None,
            "",
            "unreadable: XML declares entities (<!ENTITY> in its DOCTYPE): refused, not expanded",
        )
    ]


def test_a_csv_row_with_an_unbalanced_quote_is_quarantined_alone():
    text = 'title,abstract\n"Broken,We propose X.\n"Good",We propose Y.\nLast,We propose Z.\n'
    assert _rows(text, "papers.csv") == [
        ("csv", None, "", "malformed_row: broken quoting (',' expected after '\"') in lines 2"),
        ("csv", "Good", "We propose Y.", None),
        ("csv", "Last", "We propose Z.", None),
    ]
    # a stray quote inside a quoted abstract: the row is refused, and its tail (an odd number of quotes)
    # is not published as a paper of its own
    text = 'title,abstract\nT,"We propose a "new" method\nsecond line, more"\nLast,We propose Z.\n'
    rows = _rows(text, "papers.csv")
    assert [r[3] for r in rows] == [
        "malformed_row: broken quoting (',' expected after '\"') in lines 2",
        "malformed_row: unbalanced quote (1 quote characters in lines 3)",
        None,
    ]
    # an opening quote never closed: the rest of the file is that one row, quarantined, not split
    text = 'title,abstract\nA,We propose W.\n"Broken,We propose X.\nGood,We propose Y.\n'
    assert [r[3] for r in _rows(text, "papers.csv")] == [
        None,
        "malformed_row: broken quoting (unexpected end of data) in lines 3-5",
    ]
