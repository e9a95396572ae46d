"""Words and hosts of URLs: bare hosts, git hosts, hosts by kind and the cue words of a sentence
(tables of :mod:`pipeline.analyse.extraction.vocabulary`)."""

#: Hosts accepted without a scheme (GUIDELINES: "bare well-known hosts such as github.com/x/y"). Regex
#: fragments over the host name.
BARE_HOSTS = (
    r"github\.com",
    r"gitlab\.com",
    r"bitbucket\.org",
    r"codeberg\.org",
    r"huggingface\.co",
    r"hf\.co",
    r"anonymous\.4open\.science",
    r"[a-z0-9][a-z0-9-]*\.github\.io",
    r"arxiv\.org",
    r"doi\.org",
    r"openreview\.net",
    r"zenodo\.org",
    r"kaggle\.com",
    r"colab\.research\.google\.com",
    r"sites\.google\.com",
    r"paperswithcode\.com",
)
#: Hosts of git repositories: ``host/<owner>/<repo>`` is a repository (the ``repo`` column).
GIT_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "gist.github.com")
#: First path segments of a git host that are site pages, not owners.
GIT_RESERVED = (
    "orgs",
    "topics",
    "features",
    "sponsors",
    "marketplace",
    "explore",
    "settings",
    "about",
    "collections",
    "trending",
    "login",
    "join",
    "search",
    "apps",
    "enterprise",
    "pricing",
)
#: Hosts whose links are data sets.
DATASET_HOSTS = ("zenodo.org", "osf.io", "figshare.com", "physionet.org", "data.mendeley.com")
#: Hosts whose links are papers.
PAPER_HOSTS = (
    "arxiv.org",
    "doi.org",
    "openreview.net",
    "aclanthology.org",
    "proceedings.neurips.cc",
    "papers.nips.cc",
    "proceedings.mlr.press",
    "dl.acm.org",
    "ieeexplore.ieee.org",
    "openaccess.thecvf.com",
    "link.springer.com",
)
#: Hosts whose links are demos.
DEMO_HOSTS = ("colab.research.google.com", "replicate.com")
#: Hosts that serve one project's web pages.
PAGE_HOST_SUFFIXES = (".github.io", ".gitlab.io", ".netlify.app", ".vercel.app", ".readthedocs.io")
#: Words in the sentence before a URL that say what it points to; the sentence wins over the host rule.
URL_CUES = {
    "project_page": (r"(?:project|web|home)[\s-]?(?:page|site|website)s?", r"website", r"homepage"),
    "code": (
        r"codes?",
        r"source",
        r"implementations?",
        r"repo(?:sitory|sitories)?",
        r"github",
        r"software",
        r"library",
        r"toolkit",
        r"package",
        r"baselines",
    ),
    "dataset": (r"datasets?", r"benchmarks?", r"corpus", r"corpora"),
    "demo": (r"demos?",),
    "model": (r"models?", r"checkpoints?", r"weights"),
    "other_noun": (
        r"videos?",
        r"results",
        r"samples",
        r"prompts",
        r"details",
        r"materials?",
        r"appendix",
        r"supplementary",
        r"visuali[sz]ations?",
        r"examples?",
    ),
}
