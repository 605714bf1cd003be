(define (problem blocksworld-p08)
  (:domain blocks)
  (:objects
    b1 b2 b3 b4 b5
  )
  (:init
    (clear b1)
    (clear b2)
    (on b1 b4)
    (on b2 b3)
    (on b4 b5)
    (ontable b3)
    (ontable b5)
    (handempty)
  )
  (:goal (and
    (on b1 b4)
    (on b5 b3)
    (ontable b3)
    (ontable b4)
  ))
)
