"""hpcy25 numerics: route modules (:mod:`~numerics.softmax_multihead.predictors`,
:mod:`~numerics.softmax_multihead.mc`, :mod:`~numerics.softmax_multihead.flows`,
:mod:`~numerics.softmax_multihead.bands`) and the check functions referenced by
``theory.softmax_multihead.RESULTS``, one ``checks_<section>`` module per paper section
(``checks_sec4_1``, ``checks_sec4_2``, ``checks_appd``, ``checks_appb``, ``checks_sec5``,
``checks_appa``).  Import the modules directly."""
