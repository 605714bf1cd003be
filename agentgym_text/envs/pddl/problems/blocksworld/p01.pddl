(define (problem blocksworld-p01)
  (:domain blocks)
  (:objects
    b1 b2 b3
  )
  (:init
    (clear b1)
    (clear b2)
    (clear b3)
    (ontable b1)
    (ontable b2)
    (ontable b3)
    (handempty)
  )
  (:goal (and
    (on b1 b3)
    (ontable b3)
  ))
)
