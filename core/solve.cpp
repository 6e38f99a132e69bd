// vramcalc core: dispatch of "what fits" questions to the method that answers them.
#include "core/solve.hpp"

#include "core/estimate.hpp"
#include "core/serve/inference_solve.hpp"
#include "core/train/training_solve.hpp"

namespace vc {

const std::vector<QuestionInfo>& solve_questions() {
    static const std::vector<QuestionInfo> questions = {
        // Training and fine-tuning questions (core/training_solve.cpp) are listed here.
        {"max_batch", "Largest micro-batch that fits", "training,finetune"},
        {"max_seq", "Longest sequence that fits", "training,finetune"},
        {"min_gpus", "Fewest GPUs of the chosen type", "training,finetune"},

        // Inference and serving questions (core/inference_solve.cpp) are listed here.
        {"max_context", "Longest context at the concurrency", "inference"},
        {"max_concurrency", "Most sequences at the context", "inference"},
        {"kv_capacity", "KV cache capacity in tokens", "inference"},
        {"min_gpus", "Fewest GPUs for the load", "inference"},
        {"best_format", "Best weight formats that fit, best first", "inference"},
        {"max_gpu_layers", "Most layers on the GPU (llama.cpp -ngl)", "llamacpp"},
        {"max_gpu_experts", "MoE layers whose experts stay on the GPU (llama.cpp --n-cpu-moe)", "llamacpp"},
        {"best_local_format", "Best GGUF type for GPU + system RAM, with its -ngl and speed", "llamacpp"},
    };
    return questions;
}

Outcome<Answer> solve(const Config& cfg, const std::string& question) {
    // The solvers size against target_utilization: the same range as estimate().
    Error err;
    if (!check_target_utilization(cfg, err)) return Outcome<Answer>::failure(err);

    // Training and fine-tuning questions are dispatched here.
    if (cfg.task != Task::Inference)
        for (const auto& q : solve_questions())
            if (question == q.id && std::string(q.tasks) == "training,finetune") return solve_training(cfg, question);

    // Inference and serving questions are dispatched here.
    if (cfg.task == Task::Inference && cfg.method == Method::Detailed)
        for (const auto& q : solve_questions())
            if (question == q.id && std::string(q.tasks) == "inference") return solve_inference(cfg, question);

    if (cfg.task == Task::Inference && cfg.method == Method::Detailed)
        for (const auto& q : solve_questions())
            if (question == q.id && std::string(q.tasks) == "llamacpp") return solve_inference(cfg, question);

    std::string list;
    for (const auto& q : solve_questions()) list += (list.empty() ? "" : ", ") + std::string(q.id);
    return Outcome<Answer>::failure("question", "question \"" + question + "\" is not known for task " +
                                                    task_name(cfg.task) + (list.empty() ? "" : " (known: " + list + ")"));
}

}  // namespace vc
