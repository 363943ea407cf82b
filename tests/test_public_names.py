"""The package's public names: what `from rankmetrics_nb import *` brings, and the names it brought before it
was cut to what a user calls, each now imported from the one module that defines it (the aliases of 0.1 ended with 0.2,
when the modules moved into subpackages: CHANGELOG.md lists where each went)."""
import importlib, pkgutil
import pytest
import rankmetrics_nb

# `rankmetrics_nb.__all__` before the cut (234 names), recorded once: every one must still have a home
BEFORE = """
    Compat Accuracy AUROC FallOut RecallAtFixedPrecision BPM INSQ INST NERR8 NERR9 NERR10 NERR11 SDCG
    RBP gain_values discount_weights ideal_gains alpha_DCG judged_only trec_forms IR_MEASURES_NOT_HERE
    SetP SetR SetAP SetF Bpref infAP IPrec EvalInputError QueryMismatchWarning Batch SubtopicBatch
    Ranking label_matrix top_k per_query as_result check_k check_rel check_number check_choice
    check_n_rel safe_ratio sum_in_rank_order evaluated_report Mean query_mean apply_preset Qrels Run
    read_qrels read_run TIE_POLICIES join PreparedQrels prepare_qrels join_subtopics example_paths
    example_texts write_example EXAMPLE_SEED precision recall f_measure r_precision success
    reciprocal_rank mean_reciprocal_rank average_precision mean_average_precision DENOMINATORS
    cumulative_gain dcg ndcg GAINS DISCOUNTS DCG_PRESETS err mean_err cascade_stop_probabilities
    cascade_probabilities simulate_cascade ERR_PRESETS subtopic_matrix alpha_gains alpha_dcg alpha_ndcg
    err_ia nerr_ia nrbp nnrbp map_ia p_ia strec DiversityTable diversity_table DIVERSITY_PRESETS
    rank_correlation kendall_tau accuracy auroc compat fall_out recall_at_fixed_precision cwl_weights
    bpm insq inst nerr8 nerr9 nerr10 nerr11 sdcg rbp Measure MeasureDef Param REGISTRY parse_measure
    canonical registry_table measure P R F Rprec Success RR AP DCG nDCG ERR Judged NumRet NumRel
    NumRelRet NumQ MAP MRR NDCG alpha_nDCG ERR_IA nERR_IA NRBP nNRBP P_IA MAP_IA StRecall evaluate
    evaluation PerQueryValues evaluate_batch BatchEvaluation ranked_batch batch_as_dicts batch_ids
    average_relevance_position pwa ordered_pair_accuracy ordered_pairs precision_recall_curve
    best_recall_at_precision Evaluation TREC_MEASURES TrecMeasure TrecQueries trec_queries trec_eval
    TrecEvalResult select_measures read_zscores ZScores compare Comparison adjust_pvalues urisk trisk
    georisk trec_risk topic_set_size power ci_width detectable_difference residual_variance
    discriminative_power DiscriminativePower swap_rates SwapRates tau_ap agreement Agreement
    MergedEvaluation QrelsIndex evaluate_part merge_parts run_blocks stream_evaluation stream_evaluate
    sort_run dask_evaluation evaluate_runs local_cluster TieGroups tie_groups refuse_expected
    CONVENTIONS Convention convention conventions_table apply_conventions EMPTY_POLICIES ResultTable
    Cell win_tie_loss forest_plot differences_plot distribution_plot pr_curves pr_measures Store
    StoredEvaluation Leaderboard StaleResultError tie_range TieWarning provenance_record
    check_comparable ir_metadata reconcile reconcile_measures Reconciliation Attribution diagnose
    Diagnosis
""".split()


def test_the_record_is_whole():
    assert len(BEFORE) == len(set(BEFORE)) == 234


# names made public since the cut: each a new function a user calls
ADDED = {'prepare_run'}


def test_public_names_are_few_and_all_were_public_before():
    public = rankmetrics_nb.__all__
    assert len(public) == len(set(public)) <= 100
    assert set(public) <= set(BEFORE) | ADDED and not ADDED & set(BEFORE)


def test_star_import_brings_exactly_the_public_names():
    ns = {}
    exec('from rankmetrics_nb import *', ns)
    assert sorted(n for n in ns if not n.startswith('__')) == sorted(rankmetrics_nb.__all__)


def _modules() -> list:
    "every module of the package, imported"
    return [importlib.import_module(m.name) for m in pkgutil.walk_packages(rankmetrics_nb.__path__, 'rankmetrics_nb.')
            if not m.name.endswith(('_modidx', '__main__'))]


# the names of the last cut that changed their own name when their modules moved: (module, name there)
RENAMED = {'DCG_PRESETS': ('rankmetrics_nb.metrics.dcg', 'DCG_PRESETS'), 'ERR_PRESETS': ('rankmetrics_nb.metrics.err', 'ERR_PRESETS')}

# made internal since the cut (a module's own table, out of its `__all__`)
INTERNAL = {'IR_MEASURES_NOT_HERE'}


@pytest.mark.parametrize('name', sorted(set(BEFORE) - set(rankmetrics_nb.__all__)))
def test_names_of_the_last_cut_have_one_home(name):
    "a name the package no longer exports is in exactly one module's `__all__`, and the package itself has no alias for it"
    homes = [m.__name__ for m in _modules() if name in getattr(m, '__all__', [])]
    if name in INTERNAL: homes = [m.__name__ for m in _modules() if name in vars(m)]     # defined once, kept internal
    assert len(homes) == 1, (name, homes)
    if name in RENAMED: assert (homes[0], name) == RENAMED[name]
    assert name not in dir(rankmetrics_nb)
    with pytest.raises(AttributeError, match='no attribute'): getattr(rankmetrics_nb, name)


@pytest.mark.parametrize('name', sorted(rankmetrics_nb.__all__))
def test_public_names_have_one_home_besides_the_root(name):
    homes = [m.__name__ for m in _modules() if name in getattr(m, '__all__', [])]
    assert len(homes) == 1, (name, homes)
    assert getattr(importlib.import_module(homes[0]), name) is getattr(rankmetrics_nb, name)


def test_an_unknown_name_is_still_an_error():
    with pytest.raises(AttributeError, match='no attribute'): rankmetrics_nb.no_such_name
    with pytest.raises(ImportError): exec('from rankmetrics_nb import no_such_name', {})
