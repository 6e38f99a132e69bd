// vramcalc core: dispatch of "what fits" questions to the method that answers them.
#include "solve.hpp"

namespace vc {

const std::vector<QuestionInfo>& solve_questions() {
    static const std::vector<QuestionInfo> questions = {
        // Training and fine-tuning questions (core/training_solve.cpp) are listed here.

        // Inference and serving questions (core/inference_solve.cpp) are listed here.
    };
    return questions;
}

Outcome<Answer> solve(const Config& cfg, const std::string& question) {
    // Training and fine-tuning questions are dispatched here.

    // Inference and serving questions are dispatched here.

    std::string list;
    for (const auto& q : solve_questions()) list += (list.empty() ? "" : ", ") + std::string(q.id);
    return Outcome<Answer>::failure("question", "question \"" + question + "\" is not known for task " +
                                                    task_name(cfg.task) + (list.empty() ? "" : " (known: " + list + ")"));
}

}  // namespace vc
