(define (problem blocksworld-p05)
  (:domain blocks)
  (:objects
    b1 b2 b3 b4
  )
  (:init
    (clear b2)
    (on b1 b3)
    (on b2 b4)
    (on b4 b1)
    (ontable b3)
    (handempty)
  )
  (:goal (and
    (on b1 b3)
    (on b2 b4)
    (ontable b4)
  ))
)
