"""``croissant.json``: the release described in MLCommons Croissant 1.0 (JSON-LD), the metadata format ML
venues and dataset hubs read (spec: mlcommons.org/croissant/1.0; checked with the ``mlcroissant`` package).

What it holds:

- ``distribution``: one ``cr:FileObject`` per Parquet file of the release (path, bytes, sha256, as in
  manifest.json) and one ``cr:FileSet`` per table (``<table>/**/*.parquet``) that the record sets read
  (a global table, such as ``benchmarks``, is one file ``<table>/part-0.parquet`` with no Hive columns,
  read by ``<table>/*.parquet``: mlcroissant's ``**/`` matches one folder at least);
- ``recordSet``: one per table, one ``cr:Field`` per column with its dtype and its meaning from the data
  dictionary. The Hive partition columns (``venue``, ``year``) are not inside the files: their fields are
  extracted from the file path (``fileProperty: fullpath`` + a ``venue=(...)`` regex), so
  ``mlcroissant.Dataset("croissant.json").records("papers")`` yields complete rows offline.

Plain dict building: the project writes its own metadata; ``mlcroissant`` (heavy: rdflib, networkx,
scipy) is only a dev dependency of the test that loads the file.
"""

from __future__ import annotations

#: The JSON-LD @context of Croissant 1.0 (mlcommons/croissant datasets/1.0 examples; mlcroissant warns
#: when a key is missing or extra).
CONTEXT = {
    "@language": "en",
    "@vocab": "https://schema.org/",
    "citeAs": "cr:citeAs",
    "column": "cr:column",
    "conformsTo": "dct:conformsTo",
    "cr": "http://mlcommons.org/croissant/",
    "rai": "http://mlcommons.org/croissant/RAI/",
    "data": {"@id": "cr:data", "@type": "@json"},
    "dataType": {"@id": "cr:dataType", "@type": "@vocab"},
    "dct": "http://purl.org/dc/terms/",
    "equivalentProperty": "cr:equivalentProperty",
    "examples": {"@id": "cr:examples", "@type": "@json"},
    "extract": "cr:extract",
    "field": "cr:field",
    "fileProperty": "cr:fileProperty",
    "fileObject": "cr:fileObject",
    "fileSet": "cr:fileSet",
    "format": "cr:format",
    "includes": "cr:includes",
    "isLiveDataset": "cr:isLiveDataset",
    "jsonPath": "cr:jsonPath",
    "key": "cr:key",
    "md5": "cr:md5",
    "parentField": "cr:parentField",
    "path": "cr:path",
    "recordSet": "cr:recordSet",
    "references": "cr:references",
    "regex": "cr:regex",
    "repeated": "cr:repeated",
    "replace": "cr:replace",
    "samplingRate": "cr:samplingRate",
    "sc": "https://schema.org/",
    "separator": "cr:separator",
    "source": "cr:source",
    "subField": "cr:subField",
    "transform": "cr:transform",
}
CONFORMS_TO = "http://mlcommons.org/croissant/1.0"
PARQUET = "application/x-parquet"
#: polars dtype name (manifest.json "columns") → Croissant dataType.
DATA_TYPES = {"String": "sc:Text", "Int64": "sc:Integer", "Float64": "sc:Float", "Boolean": "sc:Boolean"}


def _field(table: str, column: str, dtype: str, description: str, partitioning: list[str]) -> dict:
    source: dict = {"fileSet": {"@id": f"{table}-files"}}
    if column in partitioning:  # Hive key: only in the path, e.g. papers/venue=ICML/year=2026/part-0.parquet
        source["extract"] = {"fileProperty": "fullpath"}
        source["transform"] = {"regex": f"^(?:.*/)?{column}=([^/]+)/.*$"}
    else:
        source["extract"] = {"column": column}
    inner = dtype[5:-1] if dtype.startswith("List(") and dtype.endswith(")") else None
    out: dict[str, object] = {
        "@type": "cr:Field",
        "@id": f"{table}/{column}",
        "name": column,
        "description": description,
        "dataType": DATA_TYPES.get(inner or dtype, "sc:Text"),
        "source": source,
    }
    if inner is not None:  # a list column (papers.authors, papers.source_urls): one value per element
        out["repeated"] = True
    return out


def croissant(
    manifest: dict, dictionary: dict, *, name: str, description: str, license_text: str, cite_as: str
) -> dict:
    """The Croissant document of one release.

    Args:
        manifest: the release's manifest (pipeline.release): ``release``, ``created_at``, and per table
            ``columns`` [{name, dtype}], ``partitioning`` and ``files`` [{path, bytes, sha256}].
        dictionary: :func:`pipeline.card.dictionary.data_dictionary` (column and table descriptions).
        name, description, license_text, cite_as: dataset-level texts (see pipeline.card).

    Returns:
        a JSON-ready dict; ``version`` is ``"<release>.0.0"`` (Croissant asks for MAJOR.MINOR.PATCH).
    """
    meanings = {t["name"]: t for t in dictionary["tables"]}
    distribution, record_sets = [], []
    for table, info in manifest["tables"].items():
        for f in info["files"]:
            distribution.append(
                {
                    "@type": "cr:FileObject",
                    "@id": f["path"],
                    "name": f["path"],
                    "contentUrl": f["path"],
                    "contentSize": f"{f['bytes']} B",
                    "encodingFormat": PARQUET,
                    "sha256": f["sha256"],
                }
            )
        distribution.append(
            {
                "@type": "cr:FileSet",
                "@id": f"{table}-files",
                "name": f"{table}-files",
                "description": f"Hive-partitioned Parquet files of the {table} table."
                if info["partitioning"]
                else f"The Parquet file of the {table} table (one file, not partitioned).",
                "encodingFormat": PARQUET,
                # mlcroissant's glob needs a folder for "**/": a global table's one file is <table>/*.parquet
                "includes": f"{table}/**/*.parquet" if info["partitioning"] else f"{table}/*.parquet",
            }
        )
        described = {c["name"]: c["description"] for c in meanings.get(table, {}).get("columns", [])}
        record_sets.append(
            {
                "@type": "cr:RecordSet",
                "@id": table,
                "name": table,
                "description": meanings.get(table, {}).get("description", table),
                "field": [
                    _field(table, c["name"], c["dtype"], described.get(c["name"], ""), info["partitioning"])
                    for c in info["columns"]
                ],
            }
        )
    return {
        "@context": CONTEXT,
        "@type": "sc:Dataset",
        "conformsTo": CONFORMS_TO,
        "name": name,
        "description": description,
        "version": f"{manifest['release']}.0.0",
        "datePublished": manifest["created_at"],
        "license": license_text,
        "citeAs": cite_as,
        "distribution": distribution,
        "recordSet": record_sets,
    }
