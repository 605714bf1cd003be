(define (problem blocksworld-p02)
  (:domain blocks)
  (:objects
    b1 b2 b3
  )
  (:init
    (clear b3)
    (on b1 b2)
    (on b3 b1)
    (ontable b2)
    (handempty)
  )
  (:goal (and
    (ontable b1)
    (ontable b3)
  ))
)
