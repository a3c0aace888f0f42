"""The Python binding (validators/python/tracelint.py) against the corpus:
what it returns is what the library reports, as Python objects."""
import os
import random

import pytest

import tracelint

CORPUS = os.path.join(os.environ["TRACELINT_SOURCE_DIR"], "corpus")


def corpus(*parts):
    return os.path.join(CORPUS, *parts)


def test_version():
    assert tracelint.version() == "0.1.0"


def test_valid_file():
    r = tracelint.validate_path(corpus("xray", "valid", "real-fdr-v5.xray"))
    assert (r.format, r.valid, r.errors, r.diagnostics) == ("xray", True, 0, [])
    assert "FDR version 5" in r.detail


def test_invalid_file_diagnostics():
    r = tracelint.validate_path(corpus("xray", "invalid", "preamble.xray"))
    assert not r.valid and r.errors == 2
    d = r.diagnostics[0]
    assert (d.rule, d.severity, d.offset, d.record, d.line) == ("XRAY-FDR-PREAMBLE", "error", 80, 3, None)
    assert d.message == "expected Pid in the preamble of buffer 0, found NewCPUId"
    assert str(d) == "80: error: expected Pid in the preamble of buffer 0, found NewCPUId [XRAY-FDR-PREAMBLE]"


def test_json_locations():
    r = tracelint.validate_path(corpus("dcfg", "invalid", "dcfg_id_duplicate.dcfg.json"))
    d = r.diagnostics[0]
    assert (d.rule, d.line, d.column, d.pointer) == ("DCFG-ID-DUPLICATE", 7, 6, "/FILE_NAMES/2/0")


def test_trace_directory_members():
    r = tracelint.validate_path(corpus("umtrace", "invalid", "after-thread-end"))
    assert r.format == "umtrace" and not r.valid
    assert all(d.member for d in r.diagnostics)


def test_bytes_equal_path():
    path = corpus("tfile", "invalid", "endian-guessed.tf")
    with open(path, "rb") as f:
        data = f.read()
    assert tracelint.validate_bytes(data, name="x.tf") == tracelint.validate_path(path)


@pytest.mark.parametrize("case", ["xray/invalid/preamble.xray", "tfile/valid/gdb-locals.tf",
                                  "dcfg/invalid/dcfg_id_duplicate.dcfg.json",
                                  "xray/valid/real-fdr-v5-zstd.xray.zst"])
def test_stream_equals_whole_file(case):
    path = corpus(*case.split("/"))
    with open(path, "rb") as f:
        data = f.read()
    whole = tracelint.validate_path(path)
    rng = random.Random(7)
    for size in (1, 7, 4096, None):
        with tracelint.Stream(name=path) as s:
            at = 0
            while at < len(data):
                n = size or rng.randint(1, 5000)
                s.feed(data[at:at + n])
                at += n
        assert s.result == whole, size


def test_options():
    path = corpus("xray", "invalid", "max-errors.xray")
    r = tracelint.validate_path(path, max_errors=1)
    assert [d.rule for d in r.diagnostics] == ["XRAY-FDR-CALL-ARGUMENT-ORDER", "TL-MAX-ERRORS"]
    assert r.truncated and r.errors == 2
    with pytest.raises(ValueError):
        tracelint.validate_path(path, format="pdf")
    r = tracelint.validate_path(corpus("tfile", "invalid", "endian-guessed.tf"), endian="big")
    assert r.detail.startswith("big-endian")


def test_errors_raise():
    with pytest.raises(tracelint.TracelintError) as e:
        tracelint.validate_path(corpus("no-such-file.xray"))
    assert e.value.status == "unreadable" and "No such file" in str(e.value)
    with pytest.raises(tracelint.TracelintError) as e:
        tracelint.validate_bytes(b"hello, world", name="hello.txt")
    assert e.value.status == "unknown format"
    with pytest.raises(tracelint.TracelintError) as e:
        with tracelint.Stream(format="xray", limit=4) as s:
            s.feed(b"0123456789")
    assert "expected at most 4 bytes" in str(e.value)
