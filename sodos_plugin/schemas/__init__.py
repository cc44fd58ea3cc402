"""The JSON documents sodos reads and writes: each defined once, as typed structures
(msgspec Structs), from which decoding validates, the JSON Schema is generated and output
is encoded, all at C speed.

* :mod:`.tournament`: the JSON tournament a host hands over (read by
  :mod:`sodos_plugin.readers.json_tournament`, written by ``sodos convert``);
* :mod:`.standings`, :mod:`.explain`, :mod:`.ratings`: what ``sodos standings``,
  ``explain`` and ``ratings`` print with ``--format json``, and ``sodos serve`` answers;
* :mod:`.service`: the error answers, ``GET /health`` and the plugins report;
* :mod:`.codec`: the one encoder; :mod:`.messages`: what is wrong with a document that
  does not decode, at its JSON path; :mod:`.catalog`: the documents by name and their
  generated schemas (``sodos schema NAME``).
"""
